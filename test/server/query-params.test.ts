/**
 * Query parameters on every GET route of a real server over a real file with data in it: a bad
 * value is a 400 naming the parameter and the reason, never a 500 and never silently ignored
 * or rolled over. The property half throws 15,000 hostile requests at all the routes.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../src/shared/api-routes.js';
import { capture, startTestServer, type TestServer } from '../helpers/server.js';
import { authedFetch } from '../helpers/token.js';

let t: TestServer;

/** A few sessions of calls, one dated 1970 and one in 2099, so every route has rows to read. */
function seedBatch(): unknown {
  const batch: unknown[] = [];
  const tools = ['search', 'fetch', 'write'];
  for (let i = 0; i < 40; i++) {
    batch.push({
      v: 1,
      type: 'call',
      session_id: `s_${i % 4}`,
      client_name: i % 2 ? 'claude-code' : 'cursor',
      tool_name: tools[i % 3],
      started_at: new Date(Date.UTC(2026, 11, 2, 10, 0, i * 7)).toISOString(),
      duration_ms: (i * 37) % 2500,
      outcome: ['ok', 'ok', 'bad_args', 'tool_error', 'crashed'][i % 5],
      response_bytes: i * 13,
      is_empty: i % 7 === 0,
      args_hash: (i % 3 ? 'a1b2c3d4e5f6' : '0f0f0f0f0f0f').replace(/^./, String(i % 10)),
    });
  }
  for (const started_at of ['1970-01-01T00:00:05Z', '2099-01-01T00:00:00Z'])
    batch.push({ ...(batch[0] as object), session_id: `s_${started_at.slice(0, 4)}`, started_at });
  return { batch };
}

beforeAll(async () => {
  t = await startTestServer();
  expect((await t.ingest(capture('ts-sdk-exercise'))).status).toBe(202);
  expect((await t.ingest(seedBatch())).status).toBe(202);
});
afterAll(() => t?.close());

/** Every GET route the server has (the SSE stream aside: it never ends). */
const GET_ROUTES = Object.values(API_ROUTES)
  .filter((k) => k.startsWith('GET '))
  .map((k) => k.slice(4));

async function get(path: string): Promise<{ status: number; error?: string }> {
  const res = await authedFetch(`${t.url}${path}`);
  const text = await res.text();
  const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json');
  const body = isJson ? (JSON.parse(text) as { error?: string }) : {};
  return { status: res.status, error: body.error };
}

describe('the parameters the review found', () => {
  it.each([
    ['/api/sessions?offset=1e21', 'offset'],
    ['/api/sessions?offset=99999999999999999999', 'offset'],
    ['/api/chains?offset=9007199254740993', 'offset'],
    ['/api/calls?limit=1e21', 'limit'],
    ['/api/startups?limit=99999999999999999999', 'limit'],
    ['/api/summary?from=2026-02-30', 'from'],
    ['/api/calls?from=2026-12-02T10:00:00%2B99:99', 'from'],
    ['/api/timeseries?to=2026-12-02T25:00:00Z', 'to'],
    ['/api/batches?before=-1', 'before'],
    ['/api/rejections?before=NaN', 'before'],
    ['/api/startups?before=1.5', 'before'],
    ['/api/calls?before=1.5', 'before'],
    ['/api/sessions?before=10', 'before'],
    ['/api/metrics/calls?before=10', 'before'],
    ['/api/summary?limit=5&limit=x', 'limit'],
    ['/api/metrics/calls?cursor=1:99999999999999999', 'cursor'],
    ['/api/metrics/calls?errors=yes', 'errors'],
    ['/api/timeseries?tz=1e2', 'tz'],
    ['/api/summary?from=2026-12-03&to=2026-12-02', 'to'],
    ['/api/sessions/%E0', 'id'],
  ])('%s → 400 naming %s', async (path, name) => {
    const r = await get(path);
    expect(r.status, r.error).toBe(400);
    expect(r.error).toMatch(new RegExp(`^${name}: `));
  });

  it('a valid before pages /api/calls by row id', async () => {
    const all = await t.api('calls', { order: 'desc' });
    const ids = all.calls.map((c) => c.id).sort((a, b) => a - b);
    const pivot = ids[10]!;
    const page = await t.api('calls', { before: pivot });
    expect(page.calls.map((c) => c.id).sort((a, b) => a - b)).toEqual(ids.slice(0, 10));
  });
});

/** Every parameter any route reads, and a few no route knows. */
const NAMES = [
  'project', 'from', 'to', 'tool', 'client', 'session', 'limit', 'offset', 'before', 'batch',
  'chain', 'size_bucket', 'tz', 'cursor', 'bucket', 'order', 'sort', 'format', 'q', 'a', 'b',
  'resolved', 'outcome', 'errors', 'latency', 'from_tool', 'first_call_success', 'retried',
  'repeated', 'unknown_link', 'retry_of_previous', 'in_chain', 'after_seq', 'kind', 'method',
  'x', '__proto__', 'constructor',
]; // prettier-ignore

const HOSTILE = [
  '', '0', '1', '-1', '1.5', 'NaN', 'Infinity', '-Infinity', '1e21', '1e3', '0x10', '0b1', ' 1',
  '99999999999999999999', '9007199254740991', '9007199254740992', '-9007199254740993', '+5',
  '2026-02-30', '2026-12-02', '2026-12-02T10:00:00Z', '2026-12-02T10:00:00+99:99',
  '2026-12-02T10:00:00.123456789-08:00', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z',
  '1970-01-01', 'true', 'false', 'asc', 'desc', 'minute', 'hour', 'day', 'jsonl', 'csv', 'md',
  'last_seen', 'cost', 'ok', 'empty', 'bad_args', 'under_100', 'over_2000', 's_0', 's_1970',
  'search', 'fetch', 'cursor', 'mp_live_test', '1:1', '-5:3', '1:99999999999999999',
  "'; DROP TABLE calls; --", '%', '\u0000', '\ud800', '🙂'.repeat(50), 'x'.repeat(5000),
]; // prettier-ignore

const value = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 2, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
  { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

const segment = fc.oneof(
  fc.constantFrom('s_0', 's_1970', 'search', 'dead_tool', 'nope', '..', '%E0', '%00', '%2F'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
);

const request = fc
  .record({
    route: fc.constantFrom(...GET_ROUTES),
    segment,
    params: fc.array(fc.tuple(fc.constantFrom(...NAMES), value), { maxLength: 6 }),
  })
  .map(({ route, segment: s, params }) => {
    const query = new URLSearchParams(params);
    return { path: route.replace(/:[a-z_]+/g, s), query, names: params.map(([n]) => n) };
  });

const REQUESTS_PER_RUN = 10;
const RUNS = 1_500;

it(
  `${RUNS * REQUESTS_PER_RUN} hostile requests over every GET route: no 5xx, every 400 names a parameter`,
  { timeout: 600_000 },
  async () => {
    expect(GET_ROUTES.length).toBeGreaterThanOrEqual(20);
    const statuses = new Map<number, number>();
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(request, { minLength: REQUESTS_PER_RUN, maxLength: REQUESTS_PER_RUN }),
        async (requests) => {
          const answers = await Promise.all(
            requests.map(async (r) => ({ r, ...(await get(`${r.path}?${r.query}`)) })),
          );
          for (const { r, status, error } of answers) {
            sent++;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            const where = `${r.path}?${r.query} → ${status} ${error ?? ''}`;
            expect(status, where).toBeLessThan(500);
            if (status === 400) {
              const named = /^([a-z_]+): /.exec(error ?? '')?.[1];
              // A path segment, a parameter sent, or one the route requires (compare's a and b,
              // the message log's session).
              const required =
                r.path === '/api/compare'
                  ? ['a', 'b']
                  : r.path === '/api/messages'
                    ? ['session']
                    : [];
              expect([...r.names, ...required, 'id', 'name'], where).toContain(named);
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
    expect(sent).toBe(RUNS * REQUESTS_PER_RUN);
    // Both sides were exercised: plenty of answers, plenty of refusals.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(1000);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(1000);
    console.log('statuses', Object.fromEntries(statuses));
  },
);
