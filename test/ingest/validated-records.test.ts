/**
 * The cache of records validated at acknowledgement (src/ingest/validated-records.ts): applying
 * uses the record only when it is the spooled request's own, gives what validating the body
 * again would, and stays within its bound. End to end, the spool tests (./spool.test.ts) apply
 * every concurrent flush through it.
 */
import { describe, expect, it } from 'vitest';
import { acceptedRecord, examine } from '../../src/ingest/examine.js';
import { createValidatedRecords } from '../../src/ingest/validated-records.js';
import type { SpooledRequest } from '../../src/store/index.js';

const body = (session: string, n = 3): Buffer =>
  Buffer.from(
    JSON.stringify({
      batch: Array.from({ length: n }, (_, i) => ({
        v: 1,
        type: 'call',
        session_id: session,
        tool_name: 'search',
        started_at: new Date(Date.UTC(2026, 11, 4, 9) + i * 1000).toISOString(),
        duration_ms: 10 + i,
        outcome: i === 1 ? 'bad_args' : 'ok',
        response_bytes: 100,
        is_empty: false,
        args_hash: 'a1b2c3d4e5f6',
      })),
    }),
  );

const accepted = (b: Buffer, receivedMs = 1_000) => {
  const v = examine({
    authorization: 'Bearer mp_live_test',
    contentType: 'application/json',
    userAgent: undefined,
    body: b,
    receivedMs,
  });
  if (v.kind !== 'accepted') throw new Error('refused');
  return v;
};

const spooled = (id: number, v: ReturnType<typeof accepted>): SpooledRequest => ({
  id,
  receivedMs: v.record.receivedMs,
  keySha256: v.key.sha256,
  keyPrefix: v.key.prefix,
  userAgent: v.record.userAgent,
  payloads: v.items,
  // Read back from SQLite: another Buffer with the same bytes.
  body: Buffer.from(v.body),
});

describe('validated records', () => {
  it('hands back the record validating the body again would give, once', () => {
    const cache = createValidatedRecords();
    const v = accepted(body('s1'));
    cache.keep(7, v.body, v.record, v.items);
    const request = spooled(7, v);
    const again = acceptedRecord(
      { receivedMs: request.receivedMs, userAgent: undefined },
      { sha256: request.keySha256, prefix: request.keyPrefix },
      request.body.length,
      (JSON.parse(request.body.toString('utf8')) as { batch: unknown[] }).batch,
    );
    expect(cache.take(request)).toEqual(again);
    expect(cache.take(request)).toBeUndefined();
  });

  it('ignores a kept record when the spool id now names another request (after clear-all)', () => {
    const cache = createValidatedRecords();
    const old = accepted(body('before_clear'));
    cache.keep(1, old.body, old.record, old.items);
    // The spool was emptied and restarted at id 1 with a different body…
    expect(cache.take(spooled(1, accepted(body('after_clear'))))).toBeUndefined();
    // …or the same body sent again later (another arrival time).
    cache.keep(1, old.body, old.record, old.items);
    expect(cache.take(spooled(1, accepted(body('before_clear'), 2_000)))).toBeUndefined();
  });

  it('keeps no more items than its bound, and makes room as records are taken', () => {
    const cache = createValidatedRecords(5);
    const a = accepted(body('a', 3));
    const b = accepted(body('b', 3));
    cache.keep(1, a.body, a.record, a.items);
    cache.keep(2, b.body, b.record, b.items); // 6 > 5: not kept, rebuilt from its body later
    expect(cache.take(spooled(2, b))).toBeUndefined();
    expect(cache.take(spooled(1, a))).toBe(a.record);
    cache.keep(2, b.body, b.record, b.items);
    expect(cache.take(spooled(2, b))).toBe(b.record);
  });
});
