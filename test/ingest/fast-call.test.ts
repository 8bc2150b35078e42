/**
 * The fast path for well-formed calls (src/ingest/fast-call.ts) against zod, the hosted API's
 * own validator: whatever the fast path accepts, zod accepts with an identical result — and
 * ordinary SDK calls take the fast path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastCall } from '../../src/ingest/fast-call.js';
import { validateItem } from '../../src/ingest/validate-item.js';
import { callSchema } from '../../src/shared/wire.js';

const date = fc
  .date({ noInvalidDate: true, min: new Date(0), max: new Date('9999-12-31T23:59:59Z') })
  .map((d) => d.toISOString());

/** An ordinary SDK call; Go omits zero and false fields. */
const validCall = fc.record(
  {
    v: fc.constant(1),
    type: fc.constant('call'),
    session_id: fc.string({ minLength: 1, maxLength: 128 }),
    client_name: fc.string({ maxLength: 128 }),
    tool_name: fc.string({ minLength: 1, maxLength: 200 }),
    started_at: date,
    duration_ms: fc.integer({ min: 0, max: 86_400_000 }),
    outcome: fc.constantFrom('ok', 'bad_args', 'tool_error', 'crashed'),
    response_bytes: fc.integer({ min: 0, max: 2_147_483_647 }),
    is_empty: fc.boolean(),
    args_hash: fc.string({
      unit: fc.constantFrom(...'0123456789abcdef'),
      minLength: 4,
      maxLength: 64,
    }),
  },
  {
    requiredKeys: [
      'v',
      'type',
      'session_id',
      'client_name',
      'tool_name',
      'started_at',
      'outcome',
      'args_hash',
    ],
  },
);

/** Stands for 1e309 (JSON.parse makes it Infinity; JSON.stringify cannot write it). */
const INF = '\u0000inf';

/** Values at and past the boundary of every rule (`undefined` removes the field). */
const edges: Record<string, unknown[]> = {
  v: [undefined, 2, '1', 0, null],
  type: [undefined, 'startup', 'Call', ''],
  session_id: [undefined, '', 'x'.repeat(128), 'x'.repeat(129), 5, null, '\ud800'],
  client_name: [undefined, '', 'c'.repeat(128), 'c'.repeat(129), 7, null],
  tool_name: [undefined, '', 't'.repeat(200), 't'.repeat(201), [], '<b>x</b>'],
  started_at: [
    undefined,
    '2026-08-09T14:22:31.123456789+02:00',
    '2026-08-09T14:22:31+0200',
    '2026-08-09T14:22Z',
    '2026-02-29T00:00:00Z',
    '2028-02-29T00:00:00Z',
    '2026-08-09 14:22:31Z',
    '2026-08-09T24:00:00Z',
    '2026-08-09T14:22:31.544z',
    '2026-08-09T14:22:31.Z',
    '',
    1754748151544,
  ],
  duration_ms: [undefined, 0, 86_400_000, 86_400_001, -1, 1.5, INF, '3', null],
  outcome: [undefined, 'OK', 'error', null, 'crashed'],
  response_bytes: [undefined, 2_147_483_647, 2_147_483_648, -1, 0.5, null],
  is_empty: [undefined, 0, 'false', null, true],
  args_hash: [undefined, 'abc', 'abcd', 'ABCD', 'a'.repeat(64), 'a'.repeat(65), 'abcg', 123],
};

/** A valid call with up to three fields pushed to an edge and maybe unknown fields, as JSON. */
const item = fc
  .tuple(
    validCall,
    fc.array(
      fc
        .constantFrom(...Object.keys(edges))
        .chain((k) => fc.constantFrom(...edges[k]!).map((v) => [k, v] as const)),
      { maxLength: 3 },
    ),
    fc.dictionary(fc.constantFrom('extra', 'schema_hash', '__proto__', 'sdk'), fc.jsonValue(), {
      maxKeys: 2,
    }),
  )
  .map(([call, changes, extra]) => {
    const out: Record<string, unknown> = { ...call };
    for (const [k, v] of changes) {
      if (v === undefined) delete out[k];
      else out[k] = v;
    }
    return JSON.stringify({ ...extra, ...out }).replaceAll(JSON.stringify(INF), '1e309');
  });

describe('fastCall', () => {
  it('accepts only what zod accepts, and returns exactly what zod returns', () => {
    let fast = 0;
    let zodOnly = 0;
    fc.assert(
      fc.property(item, (text) => {
        // Parsed from JSON as ingest does: 1e309 is Infinity, "__proto__" an own key.
        const value = JSON.parse(text) as unknown;
        const mine = fastCall(value);
        const zod = callSchema.safeParse(value);
        if (mine) {
          fast++;
          expect(zod.success, text).toBe(true);
          expect(JSON.stringify(mine), text).toBe(JSON.stringify(zod.data));
        } else if (zod.success) zodOnly++;
      }),
      { numRuns: 5000 },
    );
    expect(fast).toBeGreaterThan(500);
    expect(zodOnly).toBe(0);
  });

  it('takes every ordinary SDK call, with Go-style omitted fields', () => {
    fc.assert(
      fc.property(validCall, (call) => {
        expect(fastCall(call)).toEqual(callSchema.parse(call));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves the wording of every rejection to zod', () => {
    const bad = {
      v: 1,
      type: 'call',
      session_id: 's',
      client_name: '',
      tool_name: 't',
      started_at: '2026-02-30T00:00:00Z',
      outcome: 'ok',
      args_hash: 'abcd',
    };
    expect(fastCall(bad)).toBeNull();
    const verdict = validateItem(bad, 3);
    expect(verdict.kind).toBe('rejected');
    if (verdict.kind === 'rejected')
      expect(verdict.rejection.reason).toBe('started_at: Invalid datetime');
  });
});
