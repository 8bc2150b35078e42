/**
 * Deterministic telemetry for reliability tests: sessions with retries, repeats, unknown
 * hashes, quiet gaps, several tools and clients — enough to exercise every derived fact.
 */
import type { IngestHandler } from '../../../src/ingest/index.js';

/** A tiny seeded PRNG (mulberry32), so failures reproduce. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface WireCall {
  v: 1;
  type: 'call';
  session_id: string;
  client_name: string;
  tool_name: string;
  started_at: string;
  duration_ms: number;
  outcome: 'ok' | 'bad_args' | 'tool_error' | 'crashed';
  response_bytes: number;
  is_empty: boolean;
  args_hash: string;
}

const TOOLS = ['search', 'fetch', 'write', 'list'];
const OUTCOMES = ['ok', 'ok', 'ok', 'ok', 'bad_args', 'tool_error', 'crashed'] as const;

/**
 * The calls of one session starting at `startMs`: bursts of same-tool calls seconds apart
 * (retries, repeats, unknown hashes) separated now and then by quiet gaps over 30 s.
 */
export function sessionCalls(
  sessionId: string,
  startMs: number,
  count: number,
  random: () => number,
): WireCall[] {
  const calls: WireCall[] = [];
  let t = startMs;
  let tool = TOOLS[0]!;
  for (let i = 0; i < count; i++) {
    const r = random();
    if (r < 0.15)
      t += 31_000 + Math.floor(random() * 120_000); // quiet gap: a new run
    else t += Math.floor(random() * 12_000);
    if (random() < 0.4) tool = TOOLS[Math.floor(random() * TOOLS.length)]!;
    const h = random();
    const outcome = OUTCOMES[Math.floor(random() * OUTCOMES.length)]!;
    calls.push({
      v: 1,
      type: 'call',
      session_id: sessionId,
      client_name: random() < 0.85 ? 'claude-code' : 'cursor',
      tool_name: tool,
      started_at: new Date(t).toISOString(),
      duration_ms: Math.floor(random() * (random() < 0.1 ? 5_000 : 400)),
      outcome,
      response_bytes: outcome === 'ok' ? Math.floor(random() * 40_000) : 0,
      is_empty: outcome === 'ok' && random() < 0.1,
      args_hash:
        h < 0.05
          ? '000000000000'
          : h < 0.35
            ? 'aaaaaaaaaaaa'
            : Math.floor(random() * 2 ** 48)
                .toString(16)
                .padStart(12, '0'),
    });
  }
  return calls;
}

/** Feeds `payloads` through the real ingest handler in batches of 30, as arriving at `receivedMs`. */
export function ingestAt(
  ingest: IngestHandler,
  payloads: unknown[],
  receivedMs: number,
  key = 'mp_live_retention',
): void {
  for (let i = 0; i < payloads.length; i += 30) {
    const body = Buffer.from(JSON.stringify({ batch: payloads.slice(i, i + 30) }));
    const answer = ingest({
      authorization: `Bearer ${key}`,
      contentType: 'application/json',
      userAgent: 'test',
      body,
      receivedMs,
    });
    if (answer.status !== 202)
      throw new Error(`ingest answered ${answer.status}: ${answer.body?.error}`);
  }
}
