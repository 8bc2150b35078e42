/**
 * Never acknowledge into a lost file: before a group (or a lone request) is answered, the
 * store says whether its file is still the database at its path (src/store/file-guard.ts).
 * Once it is not, every flush gets a 503 naming the reason and the fix, and the operator is
 * told once, in one line — SDKs keep their data and retry against the restarted server.
 */
import { FILE_LOST_FIX, FileLostError, type Store } from '../store/index.js';
import type { IngestAnswer } from './examine.js';

export { FILE_LOST_FIX };

/** The one line printed when the file is found lost. */
export const fileLostLine = (problem: string): string =>
  `mcpulse-devtools: database ${problem} — new batches are refused (503) so none is acknowledged into a lost file; ${FILE_LOST_FIX}`;

/**
 * Returns a check that answers null while the file is fine and the 503 once it is lost,
 * calling `warn` the first time only.
 */
export function createFileLossCheck(
  store: Pick<Store, 'fileProblem'>,
  warn?: (line: string, problem: string) => void,
): () => IngestAnswer | null {
  let warned = false;
  return () => {
    const problem = store.fileProblem();
    if (!problem) return null;
    if (!warned) {
      warned = true;
      warn?.(fileLostLine(problem), problem);
    }
    return {
      status: 503,
      headers: {},
      body: { error: `could not store the batch: ${new FileLostError(problem).message}` },
    };
  };
}
