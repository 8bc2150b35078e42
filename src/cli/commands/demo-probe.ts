/**
 * Finding a running dashboard: the default URL and a quick probe. Shared by `demo`, `tail`
 * and `import --url`.
 */
import { UsageError } from '../io.js';
import { defaultPort } from '../../host/paths.js';
import { tokenHeaders } from '../../api/remote.js';

/** `http://localhost:7857`, or the port in `$MCPULSE_DEVTOOLS_PORT`. */
export function defaultUrl(env: NodeJS.ProcessEnv): string {
  return `http://localhost:${defaultPort(env)}`;
}

/** Strips a trailing slash, so `${url}/api/…` is always one slash. */
export function normalizeUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** `--url` as given (or the default), normalised and checked to be `http(s)://host:port`. */
export function parseServerUrl(value: string | undefined, env: NodeJS.ProcessEnv): string {
  const url = normalizeUrl(value ?? defaultUrl(env));
  if (!/^https?:\/\/[^/]+$/i.test(url)) {
    throw new UsageError(`--url: expected http://host:port, received '${url}'`);
  }
  return url;
}

/**
 * What answered at a URL. `locked`: MCPulse Devtools, but it did not take our token (none, or
 * another's) — telemetry can still go to its ingest; its data cannot be read.
 */
export type ProbeResult =
  | { kind: 'devtools'; version: string; dbPath: string; endpoint: string }
  | { kind: 'locked'; version: string }
  | { kind: 'other'; detail: string }
  | { kind: 'none'; detail: string };

/**
 * Asks `GET /api/status` with the owner `token`. `devtools` when MCPulse Devtools answered in
 * full, `locked` when it answered without our token; `other` when something else did (a
 * different program on the port); `none` when nothing is listening.
 */
export async function probeDevtools(
  url: string,
  timeoutMs = 1500,
  token?: string,
): Promise<ProbeResult> {
  let res: Response;
  try {
    res = await fetch(`${normalizeUrl(url)}/api/status`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: tokenHeaders(token),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { kind: 'none', detail: String(cause) };
  }
  try {
    const body = (await res.json()) as {
      version?: unknown;
      dbPath?: unknown;
      endpoint?: unknown;
      authorised?: unknown;
    };
    // Bound beyond loopback, the status itself needs the token: a 401 that says so is us.
    if (
      (res.ok && typeof body.version === 'string' && body.authorised === false) ||
      (res.status === 401 &&
        typeof (body as { error?: unknown }).error === 'string' &&
        /devtools token/.test((body as { error: string }).error))
    )
      return { kind: 'locked', version: typeof body.version === 'string' ? body.version : '' };
    if (res.ok && typeof body.version === 'string' && typeof body.dbPath === 'string') {
      return {
        kind: 'devtools',
        version: body.version,
        dbPath: body.dbPath,
        endpoint: String(body.endpoint ?? url),
      };
    }
  } catch {
    // Not JSON: not us.
  }
  return { kind: 'other', detail: `HTTP ${res.status}` };
}

/** Whether a URL points at this machine (so `demo` may start a dashboard there). */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
