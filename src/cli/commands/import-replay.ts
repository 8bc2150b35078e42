/**
 * Replaying a capture through the real ingest path. Either in-process — `createIngest` over
 * the database, the very handler `/v1/ingest` runs — or over HTTP to a running dashboard.
 * Both validate every payload exactly as ingest does; rejects are mapped back to line numbers.
 */
import type { Api } from '../../api/handlers.js';
import { getRemote } from '../../api/remote.js';
import type { ApiName, ApiParams } from '../../shared/api-routes.js';
import { randomBytes } from 'node:crypto';
import { createIngest, LiveBus } from '../../ingest/index.js';
import type { Store } from '../../store/index.js';

/** A batch item with the line it came from: its JSON text, as read or re-encoded once. */
export interface Item {
  line: number;
  json: string;
}

/**
 * The request body for `items`, from their texts: never `JSON.stringify` of the whole, which
 * recurses and overflows on a payload nested deep enough (./import-lines.ts).
 */
export const bodyOf = (items: readonly Item[]): string =>
  `{"batch":[${items.map((i) => i.json).join(',')}]}`;

/** One refused line (or item of a line holding a whole `{"batch":[…]}` request body). */
export interface Reject {
  line: number;
  reason: string;
}

/** What one chunk came to. */
export interface ChunkResult {
  accepted: number;
  rejects: Reject[];
  /** Set when the whole chunk was refused (and why); replay should stop on `fatal`. */
  refused?: { status: number; error: string; fatal: boolean };
}

/** Sends one chunk (≤ 500 items) and says what happened to each item. */
export type ChunkSender = (items: Item[]) => Promise<ChunkResult>;

const USER_AGENT = 'mcpulse-devtools-import/1';

/** In-process: the ingest handler over `store`, no rate limit (a replay is not traffic). */
export function directSender(store: Store, key: string): ChunkSender {
  const bus = new LiveBus();
  const ingest = createIngest({ store, bus });
  let rejected: { index: number | null; reason: string }[] = [];
  // The bus is how ingest reports each dropped item with its index and reason.
  bus.subscribe((e) => {
    if (e.type === 'rejection') rejected.push({ index: e.data.item_index, reason: e.data.reason });
  });
  return async (items) => {
    rejected = [];
    const answer = ingest({
      authorization: `Bearer ${key}`,
      contentType: 'application/json',
      userAgent: USER_AGENT,
      body: Buffer.from(bodyOf(items), 'utf8'),
      receivedMs: Date.now(),
    });
    if (answer.status !== 202) {
      return {
        accepted: 0,
        rejects: [],
        refused: {
          status: answer.status,
          error: answer.body?.error ?? `HTTP ${answer.status}`,
          fatal: answer.status >= 500,
        },
      };
    }
    const rejects = rejected.map((r) => ({
      line: items[r.index ?? 0]?.line ?? 0,
      reason: r.reason,
    }));
    return { accepted: Number(answer.headers['x-mcpulse-accepted'] ?? 0), rejects };
  };
}

/**
 * Over HTTP to a running dashboard. Each request carries a unique user agent, so the batch it
 * created can be found in the ingest log and its rejections read back with their reasons.
 */
export function httpSender(url: string, key: string, token?: string): ChunkSender {
  const nonce = randomBytes(4).toString('hex');
  let n = 0;
  /** Operation `name` of the dashboard's API; the answer is typed by the API's own map. */
  const callRemote = <K extends ApiName>(name: K, params: ApiParams): Promise<Api[K]> =>
    getRemote(url, name, params, { signal: AbortSignal.timeout(10_000), token });
  return async (items) => {
    const agent = `${USER_AGENT} (${nonce}-${++n})`;
    let res: Response;
    try {
      res = await fetch(`${url}/v1/ingest`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${key}`,
          'user-agent': agent,
        },
        body: bodyOf(items),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      const e = error as { cause?: { code?: string }; message: string };
      return {
        accepted: 0,
        rejects: [],
        refused: {
          status: 0,
          error: `no answer from ${url} (${e.cause?.code ?? e.message})`,
          fatal: true,
        },
      };
    }
    if (res.status !== 202) {
      const body = (await res.json().catch(() => ({}))) as { error?: string };
      const error =
        res.status === 429
          ? `${body.error ?? 'rate limited'} — restart the dashboard with --no-rate-limit, or import with --db`
          : (body.error ?? `HTTP ${res.status}`);
      return {
        accepted: 0,
        rejects: [],
        refused: { status: res.status, error, fatal: res.status === 429 || res.status >= 500 },
      };
    }
    await res.body?.cancel();
    const accepted = Number(res.headers.get('x-mcpulse-accepted') ?? 0);
    if (Number(res.headers.get('x-mcpulse-rejected') ?? 0) === 0) return { accepted, rejects: [] };
    const { batches } = await callRemote('batches', { limit: 200 });
    const batch = batches.find((b) => b.user_agent === agent);
    if (!batch)
      return {
        accepted,
        rejects: [
          { line: items[0]!.line, reason: 'rejected (reason not found in the ingest log)' },
        ],
      };
    const { rejections } = await callRemote('rejections', { batch: batch.id, limit: 1000 });
    const rejects = rejections
      .map((r) => ({ line: items[r.item_index ?? 0]?.line ?? 0, reason: r.reason }))
      .sort((a, b) => a.line - b.line);
    return { accepted, rejects };
  };
}
