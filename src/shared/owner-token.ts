/**
 * The owner token's names, shared by the server that checks it, the clients that send it and
 * the renderer that explains it (issue 40). The value itself lives in the owner's state folder
 * (src/host/token.ts) and is never part of the contract.
 */

/** The header every client may send the token in (the only one on `/v1/local/proxy`). */
export const TOKEN_HEADER = 'x-devtools-token';

/** The environment variable that sets the token for `serve` and every client. */
export const TOKEN_ENV = 'MCPULSE_DEVTOOLS_TOKEN';

/** The query parameter of the printed link; the server trades it for a cookie. */
export const TOKEN_QUERY = 'token';

/**
 * The cookie's name. Cookies ignore ports, so each port gets its own: two dashboards on one
 * machine (a second `serve --token`, the test suites) must not overwrite each other's.
 */
export const tokenCookieName = (port: number): string => `mcpulse_devtools_token_${port}`;

/**
 * What to do without the token, in the words every refusal and the locked screen use. The
 * command is the one that runs in a clone (the package's bin through npx, in the checkout): a
 * clone puts no `mcpulse-devtools` on PATH, and a non-owner is told no install path.
 */
export const TOKEN_COMMAND = 'npx mcpulse-devtools token';

/** {@link TOKEN_COMMAND} and the printed link, as one sentence. */
export const TOKEN_HELP = `Open the link the dashboard printed when it started, or run \`${TOKEN_COMMAND}\` in its checkout to print it`;

/** The link that opens the dashboard at `url` (no trailing slash) with `token`. */
export const dashboardLink = (url: string, token: string): string =>
  `${url}/?${TOKEN_QUERY}=${encodeURIComponent(token)}`;

/**
 * `GET /api/status` without the token: enough for a client to know it found MCPulse Devtools
 * and for the page to show its locked screen — nothing stored, not even the database's path.
 * With the token the status is the full one, with `authorised: true`.
 */
export interface LockedStatus {
  version: string;
  authorised: false;
  /** How to get the link. */
  error: string;
}
