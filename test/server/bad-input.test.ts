import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authedFetch } from '../helpers/token.js';

const call = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  v: 1,
  type: 'call',
  session_id: 's_0123456789ab',
  client_name: 'test',
  tool_name: 'good_tool',
  started_at: '2026-12-02T10:00:00.000Z',
  duration_ms: 5,
  outcome: 'ok',
  response_bytes: 10,
  is_empty: false,
  args_hash: '44136fa355b3',
  ...overrides,
});

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function errorOf(res: Response): Promise<string> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as { error: string };
  expect(typeof body.error).toBe('string');
  return body.error;
}

describe('whole-request refusals', () => {
  it('401 without a key, with an empty key, or with a non-Bearer scheme', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Bearer ' },
      { authorization: 'Bearer    ' },
      { authorization: 'Basic abc' },
    ];
    for (const headers of variants) {
      const res = await t.ingest({ batch: [call()] }, { key: null, headers });
      expect(res.status).toBe(401);
      expect(await errorOf(res)).toMatch(/bearer key/);
    }
  });

  it('400 for a body that is not JSON, not UTF-8, or not the {"batch":[…]} envelope', async () => {
    const cases: [unknown, RegExp][] = [
      ['{"batch": [', /not valid JSON/],
      [new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), /not valid UTF-8/],
      ['[]', /expected a JSON object/],
      ['null', /expected a JSON object/],
      ['{}', /^batch: Required$/],
      ['{"batch":{}}', /^batch: Expected array, received object$/],
      ['{"batch":"x"}', /^batch: Expected array, received string$/],
    ];
    for (const [body, message] of cases) {
      const res = await t.ingest(body);
      expect(res.status, String(body)).toBe(400);
      expect(await errorOf(res)).toMatch(message);
    }
  });

  it('413 for 501 payloads, and for a body over 8 MiB', async () => {
    const res = await t.ingest({ batch: Array.from({ length: 501 }, () => call()) });
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatch(/at most 500 payloads/);
    const huge = await t.ingest(`{"batch":[],"pad":"${'x'.repeat(9 * 1024 * 1024)}"}`);
    expect(huge.status).toBe(413);
    expect(await errorOf(huge)).toMatch(/over 8 MiB/);
  });

  it('records every refusal in the ingest log, and the server keeps serving', async () => {
    const { batches } = await t.api('batches', { limit: 100 });
    // Identical refusals are one row that counts them (src/ingest/refusal-log.ts).
    const unauthorised = batches.filter((b) => b.status === 401);
    await expect
      .poll(async () =>
        (await t.api('batches', { limit: 100 })).batches
          .filter((b) => b.status === 401)
          .reduce((n, b) => n + b.repeats, 0),
      )
      .toBeGreaterThanOrEqual(4);
    expect(unauthorised.length).toBeGreaterThanOrEqual(1);
    expect(batches.some((b) => b.status === 413)).toBe(true);
    expect((await authedFetch(`${t.url}/api/status`)).status).toBe(200);
  });
});

describe('items are validated one by one', () => {
  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['v: 2', call({ v: 2 }), /^v: Invalid literal value, expected 1$/],
    ['unknown type', { ...call(), type: 'heartbeat' }, /^type: Invalid discriminator value/],
    ['missing type', { v: 1 }, /^type: /],
    ['not an object', 42 as unknown as Record<string, unknown>, /Expected object|discriminator/],
    [
      'session_id number',
      call({ session_id: 7 }),
      /^session_id: Expected string, received number$/,
    ],
    ['session_id too long', call({ session_id: 's'.repeat(129) }), /^session_id: /],
    ['tool_name too long', call({ tool_name: 't'.repeat(201) }), /^tool_name: /],
    ['huge tool_name', call({ tool_name: 'x'.repeat(1_000_000) }), /^tool_name: /],
    ['client_name too long', call({ client_name: 'c'.repeat(129) }), /^client_name: /],
    ['bad started_at', call({ started_at: 'yesterday' }), /^started_at: Invalid datetime$/],
    ['started_at without offset', call({ started_at: '2026-12-02T10:00:00' }), /^started_at: /],
    ['negative duration', call({ duration_ms: -1 }), /^duration_ms: /],
    ['duration over a day', call({ duration_ms: 86_400_001 }), /^duration_ms: /],
    ['float duration', call({ duration_ms: 1.5 }), /^duration_ms: Expected integer/],
    ['unknown outcome', call({ outcome: 'timeout' }), /^outcome: Invalid enum value/],
    ['response_bytes over 2^31-1', call({ response_bytes: 2_147_483_648 }), /^response_bytes: /],
    [
      'is_empty as string',
      call({ is_empty: 'false' }),
      /^is_empty: Expected boolean, received string$/,
    ],
    ['uppercase args_hash', call({ args_hash: '44136FA355B3' }), /^args_hash: /],
    ['short args_hash', call({ args_hash: 'abc' }), /^args_hash: /],
    [
      'startup tool name number',
      {
        v: 1,
        type: 'startup',
        session_id: 's_1',
        client_name: 'c',
        tools: [{ name: 1, schema_bytes: 3 }],
      },
      /^tools\.0\.name: Expected string, received number$/,
    ],
    [
      'startup with 501 tools',
      {
        v: 1,
        type: 'startup',
        session_id: 's_1',
        client_name: 'c',
        tools: Array.from({ length: 501 }, (_, i) => ({ name: `t${i}`, schema_bytes: 1 })),
      },
      /^tools: /,
    ],
  ];

  it('drops each bad item with a dotted-path reason and stores every good item beside it', async () => {
    const key = 'mp_live_items';
    const good = Array.from({ length: bad.length + 1 }, (_, i) =>
      call({ session_id: 's_items', tool_name: `good_${i}` }),
    );
    const batch: unknown[] = [good[0]];
    bad.forEach(([, item], i) => batch.push(item, good[i + 1]));
    const res = await t.ingest({ batch }, { key });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-mcpulse-accepted')).toBe(String(good.length));
    expect(res.headers.get('x-mcpulse-rejected')).toBe(String(bad.length));

    const { calls } = await t.api('calls', { session: 's_items' });
    expect(calls.map((c) => c.tool_name).sort()).toEqual(
      good.map((g) => g.tool_name as string).sort(),
    );

    const { rejections } = await t.api('rejections', { limit: 100, project: 'mp_live_item' });
    const byIndex = new Map(rejections.map((r) => [r.item_index, r]));
    bad.forEach(([name, , reason], i) => {
      const r = byIndex.get(2 * i + 1);
      expect(r, name).toBeDefined();
      expect(r!.reason, name).toMatch(reason);
      expect(r!.key_prefix).toBe('mp_live_item');
      expect(r!.item.length).toBeLessThanOrEqual(4096);
    });
    expect(byIndex.get(15)!.truncated).toBe(true); // the 1 MB tool name, cut to a few KB
  });

  it('accepts Go-style omissions, extra fields and an empty batch', async () => {
    const go = {
      v: 1,
      type: 'call',
      session_id: 's_go',
      client_name: 'go',
      tool_name: 't',
      started_at: '2026-12-02T10:00:00Z',
      outcome: 'ok',
      args_hash: '44136fa355b3',
      sdk: { name: 'php', version: '2' },
    };
    const res = await t.ingest({
      batch: [go, { v: 1, type: 'startup', session_id: 's_go', client_name: 'go' }],
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-mcpulse-accepted')).toBe('2');
    const { calls } = await t.api('calls', { session: 's_go' });
    expect(calls[0]).toMatchObject({
      duration_ms: 0,
      response_bytes: 0,
      is_empty: false,
      extra: { sdk: { name: 'php', version: '2' } },
    });
    expect((await t.ingest({ batch: [] })).status).toBe(202);
  });

  it('survives deep nesting and 1e309 without a crash', async () => {
    const deep = `{"batch":[${'['.repeat(50_000)}${']'.repeat(50_000)},${JSON.stringify(call({ session_id: 's_deep' }))}]}`;
    const res = await t.ingest(deep);
    expect(res.status).toBe(202);
    expect(res.headers.get('x-mcpulse-rejected')).toBe('1');
    const inf = await t.ingest(
      `{"batch":[${JSON.stringify(call({ session_id: 's_inf' })).replace('"duration_ms":5', '"duration_ms":1e309')}]}`,
    );
    expect(inf.status).toBe(202);
    expect(inf.headers.get('x-mcpulse-rejected')).toBe('1');
    const { calls } = await t.api('calls', { session: 's_deep' });
    expect(calls).toHaveLength(1);
  });

  it('answers the .NET content type with charset, and GET with a 405', async () => {
    const res = await t.ingest(
      { batch: [call()] },
      { headers: { 'content-type': 'application/json; charset=utf-8' } },
    );
    expect(res.status).toBe(202);
    expect((await fetch(`${t.url}/v1/ingest`)).status).toBe(405);
  });
});
