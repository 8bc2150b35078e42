/**
 * The door every request passes after the Host and Origin checks (issue 40): a forged loopback
 * `Host` from another machine is refused, the printed link is traded for a cookie, and private
 * routes — every route but ingest, when the listener is open to the network — need the token.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TOKEN_COMMAND, TOKEN_HELP } from '../shared/owner-token.js';
import {
  carriesToken,
  isIngestRoute,
  isLoopbackPeer,
  isPrivateRoute,
  linkExchange,
  STATUS_PATH,
  tokenCookie,
} from './auth.js';
import { hostName, isLoopbackName } from './host-guard.js';
import { sendJson } from './respond.js';

/** What the gate needs to know about the listener. */
export interface GateOptions {
  token: string;
  /** The bound port (the cookie's name carries it). */
  port: () => number;
  /** Bound on a non-loopback address: the page and the status need the token too. */
  exposed: boolean;
}

/** What the gate decided: answered already, or go on (and whether the token came with it). */
export type GateResult = { answered: true } | { answered: false; authorised: boolean };

/** The one sentence a refused request gets. */
export const UNAUTHORISED = `this needs the devtools token — ${TOKEN_HELP}`;

const LOCKED_PAGE = `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>MCPulse Devtools — locked</title>
<style>
:root{color-scheme:light dark;--bg:#f7f7f8;--fg:#18181b;--muted:#52525b;--card:#fff;--line:#e4e4e7}
@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--fg:#e4e4e7;--muted:#a1a1aa;--card:#171a21;--line:#2a2f3a}}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,sans-serif}
main{max-width:34rem;margin:1.5rem;padding:2rem;background:var(--card);border:1px solid var(--line);border-radius:12px}
h1{font-size:1.25rem;margin:0 0 .75rem}p{color:var(--muted);margin:.5rem 0}code{font:13px ui-monospace,monospace;color:var(--fg)}
</style>
<main><h1>This dashboard is locked</h1>
<p>It is open to the network, so every page needs the owner's link.</p>
<p>Open the link the dashboard printed when it started, or run <code>${TOKEN_COMMAND}</code> in its checkout, on the machine it runs on, to print it.</p>
</main></html>`;

/** The page a browser gets without the token from a listener open to the network. */
function sendLockedPage(res: ServerResponse): void {
  res.writeHead(401, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(LOCKED_PAGE);
}

/**
 * Checks `req` for `path`; answers it itself when it must be refused or redirected.
 * `misdirected`: a request the ingest log answers (open to anyone, as `/v1/ingest` is).
 */
export function gate(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  misdirected: boolean,
  options: GateOptions,
): GateResult {
  const path = url.pathname;
  if (isIngestRoute(path, misdirected)) return { answered: false, authorised: false };
  // Another machine cannot be `localhost`: its `Host` was written by hand to pass the
  // DNS-rebinding check, so nothing but ingest answers it.
  if (
    !isLoopbackPeer(req.socket.remoteAddress) &&
    isLoopbackName(hostName(req.headers.host ?? ''))
  ) {
    sendJson(res, 403, {
      error: `a request from ${req.socket.remoteAddress ?? 'another machine'} addressed to '${req.headers.host ?? ''}' is refused: only this machine is localhost`,
    });
    return { answered: true };
  }
  const { token } = options;
  const port = options.port();
  const isPage = !path.startsWith('/api/') && (req.method === 'GET' || req.method === 'HEAD');
  const exchange = isPage ? linkExchange(url, token) : undefined;
  if (exchange) {
    // The token leaves the address bar (and history) at once; a wrong one just is not kept.
    res.writeHead(303, {
      location: exchange.location,
      'cache-control': 'no-store',
      ...(exchange.valid ? { 'set-cookie': tokenCookie(port, token) } : {}),
    });
    res.end();
    return { answered: true };
  }
  const authorised = carriesToken(req, path, token, port);
  if (authorised) return { answered: false, authorised };
  if (isPrivateRoute(path) || (options.exposed && path === STATUS_PATH)) {
    sendJson(
      res,
      401,
      { error: UNAUTHORISED },
      { 'www-authenticate': 'Bearer realm="mcpulse-devtools"' },
    );
    return { answered: true };
  }
  if (options.exposed) {
    if (isPage) sendLockedPage(res);
    else sendJson(res, 401, { error: UNAUTHORISED });
    return { answered: true };
  }
  return { answered: false, authorised };
}
