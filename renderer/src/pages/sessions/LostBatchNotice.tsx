/**
 * A notice on a session whose last batch probably never arrived (docs/metrics.md, "Lost last
 * batch"): a startup with no calls, or a last request that was a full 30-payload batch, after the
 * session went quiet. The Go SDK's `defer mcpulse.FlushAll()` can return before its last batch is
 * posted, so a short-lived Go server loses it routinely; the notice says so when the request came
 * from `mcpulse-go`.
 */
import { apiPath } from '../../api/api';
import { useApi } from '../../hooks/useApi';
import type { Api } from '../../api/types';
import './lost-batch.css';

/** One session's ending, as `GET /api/sessions/:id/ending` and `GET /api/connection` answer it. */
export type SessionEnding = NonNullable<Api['sessionEnding']['ending']>;

/** What the ending means, in one or two sentences a server author can act on. */
export function endingText(e: SessionEnding): string {
  const what =
    e.kind === 'startup-only'
      ? 'This session sent its tool list and then nothing: no calls arrived.'
      : `The last request from this session carried a full batch (${e.last_batch_payloads} payloads, sent because the buffer filled) and nothing came after it.`;
  const go =
    e.user_agent === 'mcpulse-go'
      ? ' It came from the Go SDK, whose `defer mcpulse.FlushAll()` can return before the last batch is posted: keep the server running 5 s after its last call.'
      : ' The process probably exited before its SDK flushed the last batch (SDKs flush every 5 s or at 30 payloads).';
  return `${what}${go}`;
}

/** The notice for one session, or nothing when its ending looks complete. */
export function LostBatchNotice({
  sessionId,
  projectId,
}: {
  sessionId: string;
  projectId: number;
}) {
  const { data } = useApi(apiPath('sessionEnding', `?project=${projectId}`, { id: sessionId }));
  const ending = data?.ending;
  if (!ending) return null;
  return (
    <div className="lost-batch" role="note" data-testid="lost-batch">
      <strong>Last batch probably lost.</strong> {endingText(ending)}
    </div>
  );
}
