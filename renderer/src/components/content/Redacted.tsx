/**
 * Redacted values, shown as what they are (issue 40): the server replaced each with
 * `[redacted: KIND]` before storing it, and here each marker is a small badge naming the kind
 * (with a tooltip saying what happened), and a message or call says how many values it lost.
 * The text around markers is shown as is; copying a body still copies the stored text.
 */
import { Fragment, useMemo } from 'react';
import { countMarkers, MARKER_PATTERN } from '../../../../src/shared/redaction';
import './redacted.css';

type Part = string | { kind: string };

/** `text` as plain runs and markers. */
export function splitMarkers(text: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const m of text.matchAll(MARKER_PATTERN)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push({ kind: m[1] ?? 'key-name' });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** A text with every marker shown as a badge. */
export function RedactedText({ text }: { text: string }) {
  const parts = useMemo(() => splitMarkers(text), [text]);
  if (parts.length <= 1 && typeof parts[0] !== 'object') return <>{text}</>;
  return (
    <>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          <Fragment key={i}>{p}</Fragment>
        ) : (
          <RedactedBadge key={i} kind={p.kind} />
        ),
      )}
    </>
  );
}

/** One redacted value. Its text is its accessible name; the tooltip says why it is there. */
export function RedactedBadge({ kind }: { kind: string }) {
  return (
    <mark
      className="redacted-badge"
      data-testid="redacted-marker"
      data-kind={kind}
      title={`${KIND_HELP[kind] ?? 'A value matched a redaction rule'}: replaced before it was stored`}
    >
      redacted: {kind}
    </mark>
  );
}

/** What each built-in kind is, for tooltips and the summary. */
const KIND_HELP: Record<string, string> = {
  'key-name': 'Its key name looks secret (password, token, authorization, …)',
  'openai-key': 'An OpenAI API key',
  'github-token': 'A GitHub token',
  'aws-key': 'An AWS access key',
  jwt: 'A JSON Web Token',
  'bearer-token': 'A Bearer/Basic credential',
  'url-credentials': 'A user and password in a URL',
  'token-parameter': 'A token, key or password parameter',
  'private-key': 'A private key',
  'user-pattern': 'One of your patterns (Settings → Redaction)',
};

/** "N values redacted" over some texts, with the kinds; nothing when none was. */
export function RedactionSummary({
  texts,
  testId = 'redaction-summary',
}: {
  texts: readonly (string | null | undefined)[];
  testId?: string;
}) {
  const counts = useMemo(() => {
    const all: Record<string, number> = {};
    for (const t of texts)
      if (t) for (const [k, n] of Object.entries(countMarkers(t))) all[k] = (all[k] ?? 0) + n;
    return all;
  }, [texts]);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const kinds = Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => (n > 1 ? `${k} ×${n}` : k))
    .join(', ');
  return (
    <p
      className="redaction-summary"
      data-testid={testId}
      title="Replaced by a marker before it was stored: the values themselves were never kept"
    >
      <span className="redaction-count">
        {total} {total === 1 ? 'value' : 'values'} redacted
      </span>
      <span className="muted">{kinds}</span>
    </p>
  );
}
