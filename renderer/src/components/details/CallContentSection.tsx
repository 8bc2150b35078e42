/**
 * The arguments a call was made with and what the tool answered (its text parts, structured
 * content, the error text) — what a proxy captured. An SDK sends none of it, and the section
 * says so in one line, with how to see it.
 */
import { fetchCallContent, type CallContent } from '../../api/content';
import { useResource } from '../../hooks/useResource';
import { ContentBoundary } from '../ContentBoundary';
import { JsonBlock } from '../content/JsonBlock';
import { answerParts } from '../content/messages';
import { stringifyJson } from '../../../../src/shared/deep-json';
import { useCli } from '../../app/cli';
import { useFilters } from '../../app/filters';
import { Link } from '../../app/router';
import { CopyButton } from '../CopyButton';
import { RedactedText, RedactionSummary } from '../content/Redacted';
import './call-content.css';

export function CallContentSection({ callId, sessionId }: { callId: number; sessionId: string }) {
  const res = useResource(`call-content:${callId}`, () => fetchCallContent(callId), {
    live: false,
  });
  if (res.error && res.data === undefined)
    return (
      <section className="cd-content">
        <h3>Arguments and answer</h3>
        <p className="muted small">{res.error}</p>
      </section>
    );
  if (res.data === undefined) return null;
  if (res.data === null) return <NoContentLine />;
  return (
    <ContentBoundary
      what="This call's arguments and answer"
      raw={`${res.data.arguments ?? ''}\n${res.data.result ?? ''}`}
      resetKey={callId}
    >
      <ContentView content={res.data} callId={callId} sessionId={sessionId} />
    </ContentBoundary>
  );
}

/** The one line an SDK call gets instead of its content. */
export function NoContentLine() {
  const cli = useCli();
  return (
    <p className="cd-no-content muted small" data-testid="call-no-content">
      The SDK sends no arguments or answers, only their hash and outcome. To see them, wrap the
      server with <code>{cli('proxy')}</code>.
    </p>
  );
}

function ContentView({
  content: c,
  callId,
  sessionId,
}: {
  content: CallContent;
  callId: number;
  sessionId: string;
}) {
  const { link } = useFilters();
  const parts = answerParts(c.result);
  return (
    <section className="cd-content" data-testid="call-content">
      <RedactionSummary texts={[c.arguments, c.result, c.error]} testId="call-redacted" />
      <h3>
        Arguments
        {c.arguments !== null && <CopyButton text={c.arguments} label="Copy" />}
      </h3>
      {c.arguments === null ? (
        <p className="muted small">No arguments were sent.</p>
      ) : (
        <JsonBlock
          text={c.arguments}
          label="Arguments"
          className="cd-json"
          testId="call-arguments"
        />
      )}
      <h3>Answer</h3>
      {c.error !== null && (
        <pre className="cd-error" data-testid="call-error-text">
          <RedactedText text={c.error} />
        </pre>
      )}
      {parts && parts.texts.length > 0 && c.error === null && (
        <div className="cd-texts" data-testid="call-answer-text">
          {parts.texts.map((t, i) => (
            <pre key={i} className="cd-text" tabIndex={0} aria-label={`Text part ${i + 1}`}>
              <RedactedText text={t} />
            </pre>
          ))}
        </div>
      )}
      {parts && parts.others.length > 0 && (
        <p className="muted small">Also: {parts.others.join(', ')} parts (in the message log).</p>
      )}
      {parts?.structured != null && (
        <>
          <h4>Structured content</h4>
          <JsonBlock
            text={structuredText(c.result)}
            label="Structured content"
            className="cd-json"
            testId="call-structured"
          />
        </>
      )}
      {c.error === null && c.result === null && (
        <p className="muted small">No answer was relayed.</p>
      )}
      {parts &&
        parts.texts.length === 0 &&
        parts.structured === null &&
        parts.others.length === 0 && (
          <p className="muted small">An empty answer: no content parts.</p>
        )}
      {c.truncated && (
        <p className="warn-text small">Stored truncated: the message was over 256 KB.</p>
      )}
      {c.request_seq !== null && (
        <Link
          className="small-link"
          href={link('/session', { id: sessionId, call: callId, msg: c.request_seq })}
          data-testid="call-in-log"
        >
          Request and answer in the message log
        </Link>
      )}
    </section>
  );
}

/** The `structuredContent` of a result's JSON text, as JSON text (any depth). */
function structuredText(result: string | null): string {
  const value: unknown = result === null ? null : JSON.parse(result);
  const r = value as { structuredContent?: unknown; result?: { structuredContent?: unknown } };
  return stringifyJson(r?.structuredContent ?? r?.result?.structuredContent ?? null);
}
