/**
 * One request and its answer side by side, bodies as indented JSON, with the time between them
 * and a copy of each (and of both) as JSON. A notification or an unanswered request shows alone.
 */
import { CopyButton } from '../CopyButton';
import { fmtMs } from '../../lib/format';
import type { MessageView } from '../../api/content';
import { ContentBoundary } from '../ContentBoundary';
import { JsonBlock } from './JsonBlock';
import { bytesText, offsetText, type MessagePair } from './messages';
import { RedactionSummary } from './Redacted';

export function MessagePairView({
  pair,
  start,
  partial = false,
  onClose,
}: {
  pair: MessagePair;
  start: number;
  /** Only part of the session is loaded: a missing side may just not be loaded. */
  partial?: boolean;
  onClose: () => void;
}) {
  const { request, answer, ms } = pair;
  const both = pairText(request, answer, ms);
  const title = request?.method ?? answer?.method ?? 'message';
  return (
    <section className="ml-pair" aria-label={`${title}: request and answer`} data-testid="ml-pair">
      <header className="ml-pair-head">
        <strong className="mono">{title}</strong>
        {ms !== null && (
          <span className="muted" data-testid="ml-timing">
            answered in {fmtMs(ms)}
          </span>
        )}
        <div className="spacer" />
        {request && answer && <CopyButton text={both} label="Copy pair as JSON" />}
        <button type="button" className="btn small ghost" onClick={onClose} aria-label="Close pair">
          ×
        </button>
      </header>
      <div className="ml-pair-sides">
        <Side
          label={request?.kind === 'notification' ? 'Notification' : 'Request'}
          m={request}
          start={start}
          partial={partial}
        />
        {request?.kind !== 'notification' && (
          <Side label="Answer" m={answer} start={start} partial={partial} />
        )}
      </div>
    </section>
  );
}

/**
 * The pair as one JSON text: each body as sent when it is JSON, as a string when it is not (a
 * cut body). Built from the texts, never re-serialised, so a body of any depth copies whole.
 */
function pairText(
  request: MessageView | undefined,
  answer: MessageView | undefined,
  ms: number | null,
): string {
  const side = (m: MessageView | undefined): string => {
    if (!m) return 'null';
    try {
      JSON.parse(m.body);
      return m.body;
    } catch {
      return JSON.stringify(m.body);
    }
  };
  return `{\n  "request": ${side(request)},\n  "answer": ${side(answer)},\n  "ms": ${JSON.stringify(ms)}\n}`;
}

function Side({
  label,
  m,
  start,
  partial,
}: {
  label: string;
  m: MessageView | undefined;
  start: number;
  partial: boolean;
}) {
  if (!m)
    return (
      <div className="ml-side empty">
        <h3>{label}</h3>
        <p className="muted">
          {partial
            ? `The ${label.toLowerCase()} is not among the messages loaded.`
            : label === 'Answer'
              ? 'No answer was relayed for this request.'
              : 'The request is not in this session’s messages.'}
        </p>
      </div>
    );
  return (
    <div className={`ml-side k-${m.kind}`} data-testid={`ml-side-${label.toLowerCase()}`}>
      <h3>
        {label}{' '}
        <span className="muted small ml-side-meta">
          #{m.seq} · {m.direction === 'client' ? 'client → server' : 'server → client'} ·{' '}
          {offsetText(m.at_ms - start)} · {bytesText(m.bytes)}
        </span>
        <CopyButton text={m.body} label="Copy JSON" className="ml-copy" />
      </h3>
      {m.truncated && (
        <p className="ml-note warn-text">
          Stored truncated: {bytesText(m.bytes)} were sent, the first 256 KB are kept.
        </p>
      )}
      <RedactionSummary texts={[m.body]} testId={`ml-redacted-${label.toLowerCase()}`} />
      <ContentBoundary what={`The ${label.toLowerCase()} body`} raw={m.body} resetKey={m.seq}>
        <JsonBlock text={m.body} label={`${label} body`} className="ml-body" />
      </ContentBoundary>
    </div>
  );
}
