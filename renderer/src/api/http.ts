/**
 * The one place the renderer talks HTTP. Every failure becomes an {@link ApiFailure} with a
 * sentence a person can act on; pages never see a raw exception.
 */
export class ApiFailure extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    readonly path: string,
  ) {
    super(message);
  }
}

import { markLocked } from './lock';

/** A 401 is the owner token missing: the shell shows the locked screen (lock.ts). */
function noteRefusal(status: number, body: unknown): void {
  if (status === 401) markLocked();
  else if (body && typeof body === 'object' && 'authorised' in body && body.authorised === false)
    markLocked();
}

/**
 * A project picked in the dashboard (a ref from the URL, a link, Setup) may not have sent its
 * first payload yet, or may just have been cleared: the dashboard is waiting for it, so it asks
 * for an empty answer instead of the 404 a mistyped `?project=` gets (src/api/params.ts).
 */
function waitingForProject(path: string): string {
  const [base, search = ''] = path.split('?', 2) as [string, string?];
  const query = new URLSearchParams(search);
  if (!query.get('project') || query.has('unknown_project')) return path;
  query.set('unknown_project', 'empty');
  return `${base}?${query.toString()}`;
}

/** GETs JSON; the body is unknown until an operation's type is put on it (api.ts). */
export async function getJson(path: string, signal?: AbortSignal): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(waitingForProject(path), {
      signal,
      headers: { accept: 'application/json' },
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiFailure(
      'Cannot reach the MCPulse Devtools server. Is it (`npm start` in its checkout, or the app) still running?',
      0,
      path,
    );
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiFailure(
      `The server answered ${path} with something that is not JSON (HTTP ${res.status}).`,
      res.status,
      path,
    );
  }
  noteRefusal(res.status, body);
  if (!res.ok) {
    const message =
      body && typeof body === 'object' && 'error' in body && typeof body.error === 'string'
        ? body.error
        : `HTTP ${res.status}`;
    if (res.status === 404 && message.startsWith('no API route')) {
      throw new ApiFailure(
        `This server does not provide ${path.split('?')[0]} yet — it may be an older build. Rebuild with \`npm run build\`.`,
        404,
        path,
      );
    }
    throw new ApiFailure(message, res.status, path);
  }
  return body;
}

/** Sends JSON; the answer is unknown until an operation's type is put on it (api.ts). */
export async function sendJson(
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiFailure('Cannot reach the MCPulse Devtools server.', 0, path);
  }
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  noteRefusal(res.status, parsed);
  if (!res.ok) {
    const message =
      parsed && typeof parsed === 'object' && 'error' in parsed
        ? String(parsed.error)
        : `HTTP ${res.status}`;
    throw new ApiFailure(message, res.status, path);
  }
  return parsed;
}

export function describeError(error: unknown): string {
  if (error instanceof ApiFailure) return error.message;
  return 'Something went wrong while loading this view. Reload the page; if it keeps happening, check the server output.';
}
