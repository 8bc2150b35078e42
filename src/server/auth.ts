/**
 * The owner token at the door (issue 40). Which requests need it, how a request may carry it
 * (header, bearer, cookie), the exchange of the printed link's `?token=` for a cookie, and the
 * peer check that keeps a listener opened to the network from trusting a forged `Host`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { INGEST_PATH } from '../ingest/index.js';
import { TOKEN_HEADER, TOKEN_QUERY, tokenCookieName } from '../shared/owner-token.js';
import { PROXY_CONTENT_PATH } from '../shared/proxy-content.js';

/** The Prometheus-style route, should one exist: as private as the API. */
export const METRICS_PATH = '/metrics';

/** The status route, the one API route that answers without the token (saying so). */
export const STATUS_PATH = '/api/status';

/** Where `authorization: Bearer` may carry the token (on ingest and proxy it is the SDK key). */
const bearerAllowed = (path: string): boolean => path.startsWith('/api/') || path === METRICS_PATH;

/** Routes that hold or change the owner's data: never without the token. */
export const isPrivateRoute = (path: string): boolean =>
  (path.startsWith('/api/') && path !== STATUS_PATH) ||
  path === METRICS_PATH ||
  path === PROXY_CONTENT_PATH;

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** The server's token's digest, made once (a server has one token for its life). */
let known: { token: string; digest: Buffer } | undefined;

/** Digests first, so the comparison takes the same time whatever the lengths. */
function sameToken(given: string, token: string): boolean {
  if (known?.token !== token) known = { token, digest: sha256(token) };
  return timingSafeEqual(sha256(given), known.digest);
}

/** The value of cookie `name` in a `Cookie` header, if present. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Whether `req` carries `token` in any way allowed on `path`. */
export function carriesToken(
  req: IncomingMessage,
  path: string,
  token: string,
  port: number,
): boolean {
  const header = req.headers[TOKEN_HEADER];
  const candidates: (string | undefined)[] = [
    typeof header === 'string' ? header : undefined,
    cookieValue(req.headers.cookie, tokenCookieName(port)),
  ];
  const auth = req.headers.authorization;
  if (bearerAllowed(path) && auth && /^bearer\s+/i.test(auth))
    candidates.push(auth.replace(/^bearer\s+/i, '').trim());
  // Every candidate is compared, so timing says nothing about which one was wrong.
  let ok = false;
  for (const c of candidates) if (c !== undefined && sameToken(c, token)) ok = true;
  return ok;
}

/** True for a peer on this machine: 127.0.0.0/8, `::1`, or IPv4 loopback mapped into IPv6. */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Routes open to anyone who can reach the listener: ingest and the misdirected-ingest answers. */
export const isIngestRoute = (path: string, misdirected: boolean): boolean =>
  path === INGEST_PATH || misdirected;

/**
 * The `Set-Cookie` for the token on `port`: HttpOnly (no script reads it), SameSite=Strict (no
 * other site's page sends it), the whole origin, kept 400 days (the most Chromium keeps one) so
 * the link is needed once per browser, not once per visit.
 */
export const tokenCookie = (port: number, token: string): string =>
  `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=34560000`;

/**
 * For a page request carrying the printed link's `?token=`: where to send the browser without
 * it (path and the rest of the query), and whether the value was right.
 */
export function linkExchange(
  url: URL,
  token: string,
): { location: string; valid: boolean } | undefined {
  const given = url.searchParams.get(TOKEN_QUERY);
  if (given === null) return undefined;
  const rest = new URLSearchParams(url.searchParams);
  rest.delete(TOKEN_QUERY);
  const query = rest.toString();
  // Only our own path, never `//elsewhere`: the redirect must stay on this origin.
  const path = `/${url.pathname.replace(/^\/+/, '')}`;
  return { location: query ? `${path}?${query}` : path, valid: sameToken(given, token) };
}
