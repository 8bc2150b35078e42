/**
 * Finding a running dashboard: the default URL and a quick probe. Shared by `demo`, `tail`
 * and `import --url`.
 */
import { UsageError } from '../io.js';
import { defaultPort } from '../../host/paths.js';

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

/** What answered at a URL. */
export type ProbeResult =
  | { kind: 'devtools'; version: string; dbPath: string; endpoint: string }
  | { kind: 'other'; detail: string }
  | { kind: 'none'; detail: string };

/**
 * Asks `GET /api/status`. `devtools` when MCPulse Devtools answered; `other` when something
 * else did (a different program on the port); `none` when nothing is listening.
 */
export async function probeDevtools(url: string, timeoutMs = 1500): Promise<ProbeResult> {
  let res: Response;
  try {
    res = await fetch(`${normalizeUrl(url)}/api/status`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { kind: 'none', detail: String(cause) };
  }
  try {
    const body = (await res.json()) as { version?: unknown; dbPath?: unknown; endpoint?: unknown };
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
