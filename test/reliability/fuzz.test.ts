/**
 * Hostile input at /v1/ingest against a real `serve` process: random bytes, random JSON,
 * mutated payloads (wrong types in every field, duplicate keys, 1e309, invalid UTF-8, deep
 * nesting, huge strings). Always a 4xx or a 202 — never a 5xx, never a crash — the server
 * answers a health request after every body, and the valid items beside invalid ones are
 * stored, once each (counted through /api/calls), while a refused batch stores nothing.
 */
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, tempDir, type Served } from './helpers/process.js';
import { getRemote } from '../../src/api/remote.js';
import { authedFetch, TEST_TOKEN } from '../helpers/token.js';

const { dir, remove } = tempDir('mcpulse-fuzz-');
let server: Served;
beforeAll(async () => {
  server = await serve(join(dir, 'devtools.db'));
}, 30_000);
afterAll(async () => {
  await server?.stop();
  remove();
});

/** Sessions of valid items, by what the batch they rode in was answered. */
const expectStored = new Set<string>();
const expectAbsent = new Set<string>();

const CALL_FIELDS: Record<string, string> = {
  v: '1',
  type: '"call"',
  session_id: '"s_x"',
  client_name: '"fuzz"',
  tool_name: '"search"',
  started_at: '"2026-12-02T10:00:00.123Z"',
  duration_ms: '12',
  outcome: '"ok"',
  response_bytes: '100',
  is_empty: 'false',
  args_hash: '"a1b2c3d4e5f6"',
};
const STARTUP_FIELDS: Record<string, string> = {
  v: '1',
  type: '"startup"',
  session_id: '"s_x"',
  client_name: '"fuzz"',
  tools: '[{"name":"search","schema_bytes":120}]',
};
const AGREEMENT_FIELDS: Record<string, string> = {
  v: '1',
  type: '"agreement"',
  session_id: '"s_x"',
  field: '"issue_id"',
  tool_a: '"search"',
  tool_b: '"lookup"',
  agreed: 'false',
  checked_at: '"2026-12-02T10:00:00.123Z"',
  window_ms: '300000',
};

/** An object as raw JSON text from raw field tokens: keeps duplicate keys and 1e309 as sent. */
const objectText = (fields: [string, string][]): string =>
  `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

/** A valid call with a fresh session id, which the test expects stored iff the batch got 202. */
function validCall(): { text: string; session: string } {
  const session = `s_valid_${randomUUID()}`;
  const fields = Object.entries(CALL_FIELDS).map(([k, v]): [string, string] => [
    k,
    k === 'session_id' ? JSON.stringify(session) : v,
  ]);
  return { text: objectText(fields), session };
}

const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);

/** Raw JSON tokens that are wrong, odd or hostile in any field. */
const hostileToken = fc.oneof(
  fc.constantFrom(
    '1e309',
    '-1e309',
    '1e-400',
    '-0',
    '123456789012345678901234567890',
    '2147483648',
    '86400001',
    '0.5',
    'null',
    'true',
    '[]',
    '{}',
    '""',
    '"\\u0000"',
    '"\\ud800"',
    '"\\udfff\\ud800"',
    '"<img src=x onerror=alert(1)>"',
    '"\u202eevil"',
    '"🚀🚀🚀"',
    '"2026-13-45T99:99:99Z"',
    '"0000000000000000000000000000000000000000000000000000000000000000a"',
    `"${'x'.repeat(201)}"`,
    deep(2_000),
    `{"__proto__":{"polluted":1}}`,
    `[${deep(50)}]`,
  ),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => JSON.stringify(s)),
  fc.double().map((d) => (Number.isFinite(d) ? String(d) : '1e999')),
  fc.integer().map(String),
);

/** A call, startup or agreement with one to three fields replaced, removed or duplicated. */
const mutatedItem = fc
  .record({
    base: fc.constantFrom(CALL_FIELDS, STARTUP_FIELDS, AGREEMENT_FIELDS),
    edits: fc.array(
      fc.record({
        field: fc.constantFrom(
          ...new Set([
            ...Object.keys(CALL_FIELDS),
            ...Object.keys(STARTUP_FIELDS),
            ...Object.keys(AGREEMENT_FIELDS),
            'extra',
            'tools',
          ]),
        ),
        op: fc.constantFrom('replace', 'delete', 'duplicate'),
        token: hostileToken,
      }),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map(({ base, edits }) => {
    let fields = Object.entries(base).map(([k, v]): [string, string] => [
      k,
      k === 'session_id' ? `"s_mut_${randomUUID()}"` : v,
    ]);
    for (const { field, op, token } of edits) {
      if (op === 'delete') fields = fields.filter(([k]) => k !== field);
      else if (op === 'duplicate') fields.push([field, token]);
      else if (fields.some(([k]) => k === field))
        fields = fields.map(([k, v]) => [k, k === field ? token : v]);
      else fields.push([field, token]);
    }
    return objectText(fields);
  });

/** An item of any kind: mutated payloads, arbitrary JSON, or unknown payload types. */
const hostileItem = fc.oneof(
  { arbitrary: mutatedItem, weight: 6 },
  { arbitrary: hostileToken, weight: 2 },
  {
    arbitrary: fc.constantFrom(
      '{"v":1,"type":"agreement","session_id":"s_a"}',
      '{"v":1,"type":"heartbeat","session_id":"s_a"}',
      '{"type":"call"}',
      '{}',
    ),
    weight: 1,
  },
);

interface Case {
  body: Buffer;
  /** Sessions of valid items: stored iff the batch was accepted. */
  valid: string[];
  /** Sessions of items that must never be stored. */
  invalid: string[];
  /** False when a text mutation may have changed which items survive. */
  countable: boolean;
  label: string;
}

/** `{"batch":[…]}` mixing valid calls (tracked) with hostile items. */
const mixedBatch = fc
  .record({
    valid: fc.integer({ min: 0, max: 4 }),
    hostile: fc.array(hostileItem, { maxLength: 12 }),
    seed: fc.integer(),
  })
  .map(({ valid, hostile, seed }): Case => {
    const goods = Array.from({ length: valid }, validCall);
    const items = [...hostile];
    goods.forEach((g, i) => items.splice(Math.abs(seed + i * 7) % (items.length + 1), 0, g.text));
    return {
      body: Buffer.from(`{"batch":[${items.join(',')}]}`),
      valid: goods.map((g) => g.session),
      invalid: [],
      countable: true,
      label: 'mixed',
    };
  });

/** A valid body damaged as text: truncated, bytes inserted (invalid UTF-8 among them), keys doubled. */
const INVALID_UTF8 = [
  [0xc3, 0x28],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xff],
  [0xc0, 0x80],
  [0xe2, 0x82],
];
const textMutation = fc
  .record({
    op: fc.constantFrom('truncate', 'insert-utf8', 'insert-bytes', 'dup-batch', 'wrap'),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
    bad: fc.constantFrom(...INVALID_UTF8),
  })
  .map(({ op, at, bytes, bad }): Case => {
    const good = Buffer.from(
      `{"batch":[${validCall().text.replace('s_valid_', 's_tx_')},${validCall().text.replace('s_valid_', 's_tx_')}]}`,
    );
    const pos = at % good.length;
    const body =
      op === 'truncate'
        ? good.subarray(0, pos)
        : op === 'insert-utf8'
          ? Buffer.concat([good.subarray(0, pos), Buffer.from(bad), good.subarray(pos)])
          : op === 'insert-bytes'
            ? Buffer.concat([good.subarray(0, pos), Buffer.from(bytes), good.subarray(pos)])
            : op === 'dup-batch'
              ? Buffer.from(
                  `{"batch":[],${good.subarray(1).toString()}`.replace('}]}', '}],"batch":{}}'),
                )
              : Buffer.from(`[${good.toString()}]`);
    return { body, valid: [], invalid: [], countable: false, label: op };
  });

const randomBytes = fc.uint8Array({ maxLength: 3_000 }).map((b): Case => ({
  body: Buffer.from(b),
  valid: [],
  invalid: [],
  countable: false,
  label: 'bytes',
}));
const randomJson = fc.jsonValue({ maxDepth: 4 }).map((v): Case => ({
  body: Buffer.from(JSON.stringify(v) ?? 'null'),
  valid: [],
  invalid: [],
  countable: false,
  label: 'json',
}));

/** Occasionally enormous: a 10 MB string (over the 8 MiB cap), a 7 MB field, 100,000-deep nesting. */
const enormous = fc.constantFrom('10mb', '7mb-field', 'deep-100k').map((kind): Case => {
  const g = validCall();
  const h = validCall();
  if (kind === '10mb') {
    const body = `{"batch":[${g.text},${h.text}],"pad":"${'x'.repeat(10 * 1024 * 1024)}"}`;
    return {
      body: Buffer.from(body),
      valid: [g.session, h.session],
      invalid: [],
      countable: true,
      label: kind,
    };
  }
  if (kind === '7mb-field') {
    const big = h.text.replace('"search"', `"${'y'.repeat(7 * 1024 * 1024)}"`);
    return {
      body: Buffer.from(`{"batch":[${g.text},${big}]}`),
      valid: [g.session],
      invalid: [h.session],
      countable: true,
      label: kind,
    };
  }
  // A 100,000-deep unknown field: production strips it and keeps the call, so do we.
  const nested = h.text.replace(/}$/, `,"nested":${deep(100_000)}}`);
  return {
    body: Buffer.from(`{"batch":[${g.text},${nested}]}`),
    valid: [g.session, h.session],
    invalid: [],
    countable: true,
    label: kind,
  };
});

const anyCase = fc.oneof(
  { arbitrary: mixedBatch, weight: 10 },
  { arbitrary: textMutation, weight: 4 },
  { arbitrary: randomBytes, weight: 2 },
  { arbitrary: randomJson, weight: 2 },
  { arbitrary: enormous, weight: 1 },
);

const headerVariants = fc.record({
  auth: fc.oneof(
    { arbitrary: fc.constant('Bearer mp_live_fuzz'), weight: 12 },
    {
      arbitrary: fc.constantFrom(
        '',
        'Bearer ',
        'Basic Zm9vOmJhcg==',
        `Bearer ${'k'.repeat(8_000)}`,
        'bearer \tmp_live_fuzz',
      ),
      weight: 3,
    },
  ),
  type: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    '',
    'application/x-www-form-urlencoded',
  ),
});

async function send(c: Case, h: { auth: string; type: string }): Promise<Response> {
  const headers: Record<string, string> = {};
  if (h.auth) headers.authorization = h.auth;
  if (h.type) headers['content-type'] = h.type;
  return fetch(`${server.url}/v1/ingest`, { method: 'POST', headers, body: c.body });
}

function record(c: Case, status: number, authorized: boolean): void {
  if (!c.countable) return;
  for (const s of c.valid) (status === 202 && authorized ? expectStored : expectAbsent).add(s);
  for (const s of c.invalid) expectAbsent.add(s);
}

it(
  'answers every hostile body with a 4xx or a 202, stays up and responsive',
  { timeout: 120_000 },
  async () => {
    let runs = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(anyCase, headerVariants, async (c, h) => {
        runs++;
        const res = await send(c, h);
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(
          res.status === 202 || (res.status >= 400 && res.status < 500),
          `${c.label} → ${res.status} ${text.slice(0, 300)}`,
        ).toBe(true);
        if (res.status === 202) expect(text).toBe('');
        else expect(typeof (JSON.parse(text) as { error: unknown }).error).toBe('string');
        if (res.status === 202 && c.countable) {
          expect(Number(res.headers.get('x-mcpulse-accepted'))).toBeGreaterThanOrEqual(
            c.valid.length,
          );
        }
        record(c, res.status, res.status === 202);
        const health = await authedFetch(`${server.url}/api/status`);
        expect(health.status).toBe(200);
        await health.arrayBuffer();
      }),
      { numRuns: 400, interruptAfterTimeLimit: 80_000, markInterruptAsFailure: false },
    );
    expect(server.child.exitCode).toBeNull();
    expect(runs).toBeGreaterThan(100);
    console.info(
      `fuzz: ${runs} bodies; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
  },
);

it('kept exactly the valid items of accepted batches, and none from refused ones', async () => {
  const stored = new Map<string, number>();
  let before: number | undefined;
  for (;;) {
    const page = await getRemote(
      server.url,
      'calls',
      { order: 'desc', limit: 10000, before },
      { token: TEST_TOKEN },
    );
    for (const c of page.calls) stored.set(c.session_id, (stored.get(c.session_id) ?? 0) + 1);
    if (page.calls.length < 10_000) break;
    before = page.calls.at(-1)!.id;
  }
  expect(expectStored.size).toBeGreaterThan(50);
  for (const s of expectStored) expect(stored.get(s), s).toBe(1);
  for (const s of expectAbsent) expect(stored.has(s), s).toBe(false);
  const validStored = [...stored.keys()].filter((s) => s.startsWith('s_valid_'));
  expect(validStored.length).toBe(expectStored.size);
});

it(
  'answers each named kind of hostile input as documented, every time',
  { timeout: 60_000 },
  async () => {
    const post = (body: Buffer | string) =>
      fetch(`${server.url}/v1/ingest`, {
        method: 'POST',
        headers: { authorization: 'Bearer mp_live_fuzz', 'content-type': 'application/json' },
        body,
      });
    const stored = async (session: string): Promise<number> =>
      (await getRemote(server.url, 'calls', { session }, { token: TEST_TOKEN })).calls.length;
    const cases: {
      name: string;
      body: () => { body: Buffer | string; keep: string[]; drop: string[] };
      status: number;
      error?: RegExp;
    }[] = [
      {
        name: 'invalid UTF-8',
        body: () => {
          const g = validCall();
          return {
            body: Buffer.concat([
              Buffer.from(`{"batch":[${g.text.slice(0, -1)},"x":"`),
              Buffer.from([0xed, 0xa0, 0x80]),
              Buffer.from('"}]}'),
            ]),
            keep: [],
            drop: [g.session],
          };
        },
        status: 400,
        error: /^body is not valid UTF-8$/,
      },
      {
        name: 'a 10 MB string',
        body: () => {
          const g = validCall();
          return {
            body: `{"batch":[${g.text}],"x":"${'z'.repeat(10_000_000)}"}`,
            keep: [],
            drop: [g.session],
          };
        },
        status: 413,
        error: /over 8 MiB/,
      },
      {
        name: '100,000-deep nesting beside a valid call',
        body: () => {
          const g = validCall();
          return { body: `{"batch":[${g.text},${deep(100_000)}]}`, keep: [g.session], drop: [] };
        },
        status: 202,
      },
      {
        name: 'duplicate keys (the last wins, as in every JSON parser the SDKs talk to)',
        body: () => {
          const g = validCall();
          const h = validCall();
          return {
            body: `{"batch":[${g.text.replace('"v":1', '"v":2,"v":1')},${h.text.replace('"v":1', '"v":1,"v":2')}]}`,
            keep: [g.session],
            drop: [h.session],
          };
        },
        status: 202,
      },
      {
        name: '1e309 as a duration',
        body: () => {
          const g = validCall();
          const h = validCall();
          return {
            body: `{"batch":[${g.text},${h.text.replace('"duration_ms":12', '"duration_ms":1e309')}]}`,
            keep: [g.session],
            drop: [h.session],
          };
        },
        status: 202,
      },
    ];
    // A wrong type in every field of a call, each beside a valid call.
    for (const field of Object.keys(CALL_FIELDS)) {
      for (const wrong of ['"1"', '1', 'true', 'null', '[]', '{}']) {
        if (CALL_FIELDS[field] === wrong || (field === 'is_empty' && wrong === 'true')) continue;
        if ((field === 'duration_ms' || field === 'response_bytes') && wrong === '1') continue;
        if (['session_id', 'client_name', 'tool_name'].includes(field) && wrong === '"1"') continue;
        cases.push({
          name: `${field}: ${wrong}`,
          body: () => {
            const g = validCall();
            const h = validCall();
            const bad =
              field === 'session_id'
                ? h.text.replace(
                    `"session_id":"${h.session}"`,
                    `"session_id":${wrong},"x":"${h.session}"`,
                  )
                : h.text.replace(`"${field}":${CALL_FIELDS[field]}`, `"${field}":${wrong}`);
            return { body: `{"batch":[${bad},${g.text}]}`, keep: [g.session], drop: [h.session] };
          },
          status: 202,
        });
      }
    }
    for (const c of cases) {
      const { body, keep, drop } = c.body();
      const res = await post(body);
      const text = await res.text();
      expect(res.status, `${c.name}: ${text.slice(0, 200)}`).toBe(c.status);
      if (c.error) expect((JSON.parse(text) as { error: string }).error, c.name).toMatch(c.error);
      if (c.status === 202 && drop.length)
        expect(res.headers.get('x-mcpulse-rejected'), c.name).not.toBe('0');
      for (const s of keep) expect(await stored(s), `${c.name}: kept ${s}`).toBe(1);
      for (const s of drop) expect(await stored(s), `${c.name}: dropped ${s}`).toBe(0);
      expect((await authedFetch(`${server.url}/api/status`)).status).toBe(200);
    }
    expect(cases.length).toBeGreaterThan(60);
  },
);
