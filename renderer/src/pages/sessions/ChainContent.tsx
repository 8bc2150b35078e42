/**
 * A retry chain of a proxied session, told attempt by attempt: the error or empty answer that
 * preceded each retry and what the model changed in the arguments, with the playground one click
 * away holding both argument texts. Nothing shows for SDK sessions, which send no content.
 */
import type { ReactNode } from 'react';
import { fetchCallContent } from '../../api/content';
import type { CallView } from '../../api/types';
import { Link } from '../../app/router';
import { useResource } from '../../hooks/useResource';
import { compareTextsHref } from '../playground/compare-link';
import { attemptContents, changeText, type AttemptAnswer } from './attempt-content';
import './chain-content.css';
import { RedactedText } from '../../components/content/Redacted';

export function ChainContent({
  attempts,
  fallback,
}: {
  attempts: CallView[];
  /** What to show when no attempt has content (an SDK session): the hash-only note. */
  fallback?: ReactNode;
}) {
  const ids = attempts.map((c) => c.id);
  const res = useResource(
    `chain-content:${ids.join(',')}`,
    () => Promise.all(ids.map((id) => fetchCallContent(id))),
    { live: false },
  );
  // No content route to ask (an older server) reads as no content.
  if (!res.data) return res.error ? <>{fallback}</> : null;
  if (res.data.every((c) => c === null)) return <>{fallback}</>;
  const steps = attemptContents(attempts, res.data);
  const first = steps[0];
  const last = steps.at(-1);
  return (
    <div className="chain-story" data-testid="chain-story">
      <ol className="chain-steps">
        {steps.map((s, i) => (
          <li key={s.call.id} data-attempt={i + 1}>
            {i > 0 && (
              <div className="chain-diff" data-testid="chain-diff">
                <span className="muted">changed:</span>{' '}
                {s.changes === null ? (
                  <span className="muted">arguments not captured</span>
                ) : s.changes.length === 0 ? (
                  <span className="muted">nothing — the same arguments again</span>
                ) : (
                  <ul className="chain-changes">
                    {s.changes.map((c) => (
                      <li key={c.path} className={`change-${c.kind}`}>
                        <code>{changeText(c)}</code>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
            <div className="chain-answer">
              <span className="chain-step-no">Attempt {i + 1}</span>
              <AnswerLine answer={s.answer} />
            </div>
          </li>
        ))}
      </ol>
      {first && last && first !== last && (first.args !== null || last.args !== null) && (
        <Link
          className="btn small"
          href={compareTextsHref(
            first.call.tool_name,
            { hash: first.call.args_hash, text: first.args },
            { hash: last.call.args_hash, text: last.args },
          )}
          data-testid="chain-playground"
        >
          Open attempts 1 and {steps.length} in the playground
        </Link>
      )}
    </div>
  );
}

function AnswerLine({ answer }: { answer: AttemptAnswer }) {
  switch (answer.kind) {
    case 'error':
      return (
        <q className="chain-error" data-testid="chain-error">
          <RedactedText text={answer.text} />
        </q>
      );
    case 'empty':
      return <span className="warn-text">an empty answer</span>;
    case 'text':
      return (
        <span className="chain-ok-text">
          <RedactedText text={clip(answer.text)} />
        </span>
      );
    case 'none':
      return <span className="muted">no answer captured</span>;
  }
}

/** The first 160 characters; a redaction marker the cut would split is left out whole. */
const clip = (t: string): string => {
  if (t.length <= 160) return t;
  const head = t.slice(0, 160);
  const open = head.lastIndexOf('[redacted');
  return `${open !== -1 && !head.includes(']', open) ? head.slice(0, open) : head}…`;
};
