/**
 * The owner token of this test file's servers. Every server a test starts asks for it (as
 * `serve` asks for the one in ~/.mcpulse-devtools/token), and every helper and spawned CLI
 * sends it — through $MCPULSE_DEVTOOLS_TOKEN, as a script would — so no test writes the real
 * home folder's token file.
 */
import { randomBytes } from 'node:crypto';
import { tokenHeaders } from '../../src/api/remote.js';
import { TOKEN_ENV } from '../../src/shared/owner-token.js';

export const TEST_TOKEN = `test-${randomBytes(16).toString('hex')}`;

/** The header that carries {@link TEST_TOKEN}. */
export const TOKEN_HEADERS: Record<string, string> = tokenHeaders(TEST_TOKEN);

/** The environment a spawned CLI gets: its token is this file's. */
export const TOKEN_ENV_VARS: Record<string, string> = { [TOKEN_ENV]: TEST_TOKEN };

/** `fetch` with the owner token's header added (for `/api/*` and the proxy's content route). */
export function authedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, {
    ...init,
    headers: { ...TOKEN_HEADERS, ...(init.headers as Record<string, string> | undefined) },
  });
}
