/**
 * Issue 39: live updates coalesce. At 2,000 payloads/s a stream is written at most a few times
 * a second — not once per stored row — so an open tab wakes (and refetches) a few times a
 * second; every event still arrives, in order, and the first one after a quiet spell at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SSE_FLUSH_MS } from '../../src/server/sse.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A flush of `n` calls of one session. */
function flush(session: string, n: number): { batch: unknown[] } {
  const now = Date.now();
  return {
    batch: Array.from({ length: n }, (_, i) => ({
      v: 1,
      type: 'call',
      session_id: session,
      client_name: 'sse',
      tool_name: `tool_${i % 4}`,
      started_at: new Date(now - (n - i) * 100).toISOString(),
      duration_ms: 5,
      outcome: 'ok',
      response_bytes: 100,
      is_empty: false,
      args_hash: 'abcdefabcdef',
    })),
  };
}

/** An SSE reader: when each chunk arrived, and the events in them. */
async function openStream(server: TestServer, abort: AbortSignal) {
  const res = await server.fetch('/api/stream', { signal: abort });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const chunks: { at: number; events: string[] }[] = [];
  let rest = '';
  const done = (async () => {
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) return;
        rest += decoder.decode(value, { stream: true });
        const parts = rest.split('\n\n');
        rest = parts.pop()!;
        const events = parts
          .map((p) => /^event: (\w+)/m.exec(p)?.[1])
          .filter((e): e is string => e !== undefined);
        if (events.length) chunks.push({ at: performance.now(), events });
      }
    } catch {
      // Aborted: the test is over.
    }
  })();
  return { chunks, done };
}

/**
 * Deliveries: chunks less than 100 ms apart are one write the socket split (a window's events
 * can take more than one read on a busy machine; writes are ≥ 250 ms apart).
 */
function deliveries(chunks: { at: number }[]): number[] {
  const at: number[] = [];
  for (const c of chunks) if (!at.length || c.at - at.at(-1)! > 100) at.push(c.at);
  return at;
}

describe('the live stream under a flood (issue 39)', () => {
  it('writes a stream at most ~4 times a second at 2,000 payloads/s, every flush announced', async () => {
    t = await startTestServer({ retention: false });
    const server = t;
    const abort = new AbortController();
    const stream = await openStream(server, abort.signal);
    await new Promise((r) => setTimeout(r, 200));

    // A lone call after a quiet spell arrives at once, not a window later: it is stored (and
    // published) before its answer, so its event comes about when the answer does.
    expect((await server.ingest(flush('s_first', 1))).status).toBe(202);
    const t0 = performance.now();
    while (!stream.chunks.some((c) => c.events.includes('call')))
      await new Promise((r) => setTimeout(r, 2));
    const firstMs = stream.chunks[0]!.at - t0;
    await new Promise((r) => setTimeout(r, SSE_FLUSH_MS + 50));
    const before = stream.chunks.length;

    // 2,000 payloads/s: 20 flushes of 25 calls every 250 ms... paced as 1 flush per 12.5 ms.
    const SECONDS = 5;
    const PER_FLUSH = 25;
    const flushes = (2_000 / PER_FLUSH) * SECONDS;
    const floodStart = performance.now();
    const answers: Promise<Response>[] = [];
    for (let i = 0; i < flushes; i++) {
      const due = floodStart + (i * 1000 * SECONDS) / flushes;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      answers.push(server.ingest(flush(`s_flood_${i}`, PER_FLUSH)));
    }
    const statuses = await Promise.all(answers.map(async (a) => (await a).status));
    expect(statuses.every((s) => s === 202)).toBe(true);
    const floodMs = performance.now() - floodStart;
    // Until every flush has been announced (the spool applies, then the last window). Every
    // request has its `batch` event; its `call` rows too unless a backlog of 2,000+ items was
    // being applied (src/ingest/spool-applier.ts), which a busy machine reaches.
    const expected = 1 + flushes;
    const batches = (): number =>
      stream.chunks.reduce((n, c) => n + c.events.filter((e) => e === 'batch').length, 0);
    for (let i = 0; i < 300 && batches() < expected; i++)
      await new Promise((r) => setTimeout(r, 50));
    abort.abort();
    await stream.done;

    const flood = deliveries(stream.chunks.slice(before));
    // The most deliveries in any one second of the flood.
    let most = 0;
    for (const start of flood)
      most = Math.max(most, flood.filter((a) => a >= start && a < start + 1000).length);
    const events = stream.chunks.slice(before).reduce((n, c) => n + c.events.length, 0);
    console.log(
      `first event ${firstMs.toFixed(1)} ms after its post's answer; flood of ${flushes} posts over ${(floodMs / 1000).toFixed(1)} s: ` +
        `${events} events in ${flood.length} deliveries, at most ${most} in one second`,
    );
    expect(firstMs).toBeLessThan(SSE_FLUSH_MS / 2);
    expect(batches()).toBe(expected);
    // 1000 / 250 ms = 4 windows a second, plus one for a window's edge straddling the second.
    expect(most).toBeLessThanOrEqual(5);
    expect(flood.length).toBeGreaterThan(SECONDS);
  }, 60_000);
});
