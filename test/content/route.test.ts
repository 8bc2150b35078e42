/**
 * The proxy's content route and the reads over it, end to end: a real server on port 0, a
 * real SQLite file, real HTTP. Content goes through POST /v1/local/proxy, calls through
 * /v1/ingest, as the proxy sends them.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_BODY_CAP } from '../../src/shared/proxy-content.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { BASE_MS, KEY, postContent, proxiedSession } from './helpers.js';
import { authedFetch } from '../helpers/token.js';

let t: TestServer;
const session = proxiedSession('s_proxied00001', [
  {
    tool: 'search_issues',
    args: { since: '02/12/2026' },
    isError: true,
    text: 'Invalid date format: use YYYY-MM-DD',
    t: 0,
  },
  { tool: 'search_issues', args: { since: '2026-12-02' }, text: '3 issues found', t: 2000 },
  {
    tool: 'read_file',
    args: { path: 'a.txt' },
    rpcError: { code: -32602, message: 'path must be absolute' },
    t: 5000,
  },
]);

beforeAll(async () => {
  t = await startTestServer();
  expect((await t.ingest(session.ingest)).status).toBe(202);
  const res = await postContent(t.url, session.content);
  expect(res.status).toBe(202);
  expect(res.headers.get('x-mcpulse-accepted')).toBe(String(session.content.messages!.length));
});
afterAll(() => t.close());

async function errorOf(res: Response): Promise<string> {
  return ((await res.json()) as { error: string }).error;
}

describe('POST /v1/local/proxy', () => {
  it('stores every message in seq order with its fields as sent', async () => {
    const { messages, total, project_id } = await t.api('messages', { session: 's_proxied00001' });
    expect(project_id).not.toBeNull();
    expect(total).toBe(7);
    const sent = session.content.messages!.map(({ call_started_at: _c, ...m }) => m);
    expect(messages).toEqual(sent);
  });

  it('is idempotent: a retried post stores nothing twice, a new seq is added', async () => {
    const extra = {
      seq: 7,
      direction: 'client' as const,
      at_ms: 1,
      method: 'notifications/cancelled',
      rpc_id: null,
      kind: 'notification' as const,
      body: '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}',
      truncated: false,
      bytes: 60,
    };
    const again = await postContent(t.url, {
      ...session.content,
      messages: [...session.content.messages!, extra],
    });
    expect(again.status).toBe(202);
    expect(again.headers.get('x-mcpulse-duplicates')).toBe('7');
    const { messages } = await t.api('messages', { session: 's_proxied00001' });
    expect(messages.map((m) => m.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(messages.at(-1)).toEqual(extra);
  });

  it('keeps only the key fingerprint, never the key', () => {
    const db = new Database(t.dbPath, { readonly: true });
    try {
      const keys = db.prepare('SELECT key_sha256, key_prefix FROM projects').all();
      expect(keys).toEqual([
        {
          key_sha256: createHash('sha256').update(KEY).digest('hex'),
          key_prefix: KEY.slice(0, 12),
        },
      ]);
      const bodies = db.prepare('SELECT body FROM proxy_messages').pluck().all() as string[];
      expect(bodies.some((b) => b.includes(KEY))).toBe(false);
    } finally {
      db.close();
    }
  });

  it('refuses a bad post with a clear 400 and records it on the ingest log', async () => {
    const cases: [unknown, number, RegExp, string | null | undefined][] = [
      [session.content, 401, /bearer key/, null],
      ['{"v":1,', 400, /not valid JSON/, undefined],
      [{ v: 2, session_id: 's' }, 400, /^\/v1\/local\/proxy: v: /, undefined],
      [{ v: 1 }, 400, /session_id: Required/, undefined],
      [{ v: 1, session_id: 's', session: { transport: 'pigeon' } }, 400, /session\./, undefined],
      [
        { v: 1, session_id: 's', messages: 'all of them' },
        400,
        /messages: Expected array/,
        undefined,
      ],
    ];
    const before = (await t.api('batches')).batches.length;
    for (const [body, status, message, key] of cases) {
      const res = await postContent(t.url, body, { key });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(await errorOf(res)).toMatch(message);
    }
    const { batches } = await t.api('batches');
    expect(batches.length - before).toBe(cases.length);
    expect(
      batches
        .slice(0, cases.length)
        .map((b) => b.status)
        .reverse(),
    ).toEqual(cases.map((c) => c[1]));
    expect(batches[0]!.error).toMatch(/^\/v1\/local\/proxy: messages: Expected array/);
    const rejections = await t.api('rejections', { batch: batches[0]!.id });
    expect(rejections.rejections[0]!.reason).toMatch(/messages: Expected array/);
  });

  it('drops a bad message on its own, with a reason, and keeps the good ones beside it', async () => {
    const good = (seq: number) => ({
      seq,
      direction: 'server',
      at_ms: 5,
      method: 'tools/list',
      rpc_id: '9',
      kind: 'result',
      body: '{"jsonrpc":"2.0","id":9,"result":{"tools":[]}}',
      truncated: false,
      bytes: 44,
    });
    const res = await postContent(t.url, {
      v: 1,
      session_id: 's_mixed',
      messages: [
        good(0),
        { ...good(1), kind: 'answer' },
        { ...good(2), body: 'x'.repeat(MESSAGE_BODY_CAP + 1), truncated: true },
        good(3),
      ],
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-mcpulse-accepted')).toBe('2');
    expect(res.headers.get('x-mcpulse-rejected')).toBe('2');
    const { messages } = await t.api('messages', { session: 's_mixed' });
    expect(messages.map((m) => m.seq)).toEqual([0, 3]);
    const [log] = (await t.api('batches')).batches;
    expect(log).toMatchObject({ status: 202, accepted: 2, rejected: 2 });
    const reasons = (await t.api('rejections', { batch: log!.id })).rejections.map((r) => r.reason);
    expect(reasons.sort()).toEqual([
      expect.stringMatching(/^messages\.1\.kind: Invalid enum value/),
      expect.stringMatching(/^messages\.2\.body: 262145 bytes, over the 262144-byte cap/),
    ]);
  });

  it('announces what reaches the ingest log on the live stream, as ingest does', async () => {
    const controller = new AbortController();
    const res = await authedFetch(`${t.url}/api/stream`, { signal: controller.signal });
    const reader = res.body!.getReader();
    expect((await postContent(t.url, { v: 1 })).status).toBe(400);
    const partial = await postContent(t.url, {
      v: 1,
      session_id: 's_live',
      messages: [
        {
          seq: 0,
          direction: 'client',
          at_ms: 1,
          method: 'ping',
          rpc_id: '1',
          kind: 'request',
          body: '{}',
          truncated: false,
          bytes: 2,
        },
        { seq: 1, direction: 'nowhere' },
      ],
    });
    expect(partial.status).toBe(202);
    let text = '';
    while (
      (text.match(/event: batch/g) ?? []).length < 2 ||
      !text.includes('messages.1.direction')
    ) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toMatch(
      /event: batch\ndata: \{.*"status":400.*"error":"\/v1\/local\/proxy: session_id: Required"/,
    );
    expect(text).toMatch(/event: batch\ndata: \{.*"status":202,"accepted":1,"rejected":1/);
    expect(text).toMatch(
      /event: rejection\ndata: \{.*"reason":"messages\.1\.direction: Invalid enum value/,
    );
  });

  it('answers 405 to a GET and is not offered to a non-loopback Host', async () => {
    const get = await authedFetch(`${t.url}/v1/local/proxy`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    // fetch cannot send another Host; node:http can, as a DNS-rebinding page's browser would.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: t.server.info.port,
          path: '/v1/local/proxy',
          method: 'POST',
          headers: { host: 'evil.example', authorization: `Bearer ${KEY}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(session.content));
    });
    expect(status).toBe(403);
  });
});

describe('GET /api/messages', () => {
  it('filters by kind, method and a substring of the body, and pages by after_seq', async () => {
    const q = { session: 's_proxied00001' };
    const kinds = await t.api('messages', { ...q, kind: 'error' });
    expect(kinds.messages.map((m) => m.seq)).toEqual([6]);
    const method = await t.api('messages', { ...q, method: 'initialize' });
    expect(method.messages.map((m) => m.seq)).toEqual([0]);
    const search = await t.api('messages', { ...q, q: 'YYYY-MM-DD' });
    expect(search.messages.map((m) => m.seq)).toEqual([2]);
    // A search means the characters typed, not LIKE patterns.
    expect((await t.api('messages', { ...q, q: '%' })).messages).toEqual([]);
    const first = await t.api('messages', { ...q, limit: 3 });
    expect(first.messages.map((m) => m.seq)).toEqual([0, 1, 2]);
    expect(first.next_after_seq).toBe(2);
    const next = await t.api('messages', { ...q, limit: 3, after_seq: first.next_after_seq });
    expect(next.messages.map((m) => m.seq)).toEqual([3, 4, 5]);
    const last = await t.api('messages', { ...q, limit: 3, after_seq: 5 });
    expect(last.messages.map((m) => m.seq)).toEqual([6, 7]);
    expect(last.next_after_seq).toBeNull();
  });

  it('a session without content lists nothing; a bad parameter is a 400 naming it', async () => {
    const none = await t.api('messages', { session: 's_nobody' });
    expect(none).toMatchObject({ project_id: null, total: 0, messages: [] });
    for (const [query, name] of [
      ['', 'session'],
      ['?session=s_proxied00001&kind=answer', 'kind'],
      ['?session=s_proxied00001&after_seq=-1', 'after_seq'],
      ['?session=s_proxied00001&before=3', 'before'],
    ] as const) {
      const res = await authedFetch(`${t.url}/api/messages${query}`);
      expect(res.status, query).toBe(400);
      expect(await errorOf(res)).toMatch(new RegExp(`^${name}: `));
    }
  });
});

describe('GET /api/calls/:id', () => {
  it('carries the call as the list has it, plus its arguments, result and error text', async () => {
    const { calls } = await t.api('calls', { session: 's_proxied00001' });
    expect(calls).toHaveLength(3);
    const [bad, good, rpc] = await Promise.all(calls.map((c) => t.api('call', { id: c.id })));
    const { content: _c, ...fields } = bad!;
    expect(fields).toEqual(calls[0]);
    expect(bad!.content).toEqual({
      arguments: '{"since":"02/12/2026"}',
      result: JSON.stringify({
        content: [{ type: 'text', text: 'Invalid date format: use YYYY-MM-DD' }],
        isError: true,
      }),
      error: 'Invalid date format: use YYYY-MM-DD',
      request_seq: 1,
      answer_seq: 2,
      truncated: false,
    });
    expect(good!.content).toMatchObject({
      arguments: '{"since":"2026-12-02"}',
      error: null,
      request_seq: 3,
      answer_seq: 4,
    });
    expect(JSON.parse(good!.content!.result!)).toEqual({
      content: [{ type: 'text', text: '3 issues found' }],
    });
    expect(rpc!.content).toMatchObject({
      arguments: '{"path":"a.txt"}',
      result: null,
      error: 'path must be absolute',
    });
  });

  it('tells apart calls of one session that started in the same millisecond', async () => {
    // Two concurrent calls of one tool and one of another, all at t = 0.
    const twins = proxiedSession('s_twins', [
      { tool: 'add', args: { a: 1 }, text: '1', t: 0 },
      { tool: 'add', args: { a: 2 }, text: '2', t: 0 },
      { tool: 'echo', args: { text: 'x' }, text: 'x', t: 0 },
    ]);
    expect((await t.ingest(twins.ingest)).status).toBe(202);
    expect((await postContent(t.url, twins.content)).status).toBe(202);
    const { calls } = await t.api('calls', { session: 's_twins' });
    const contents = await Promise.all(
      calls.map(async (c) => (await t.api('call', { id: c.id })).content),
    );
    expect(
      contents.map((c) => [c!.arguments, c!.error, JSON.parse(c!.result!).content[0].text]),
    ).toEqual([
      ['{"a":1}', null, '1'],
      ['{"a":2}', null, '2'],
      ['{"text":"x"}', null, 'x'],
    ]);
  });

  it('is null for an SDK call, 404 for an unknown id, 400 for a bad one', async () => {
    const sdk = { ...session.ingest.batch[0]!, session_id: 's_sdk_only' };
    expect((await t.ingest({ batch: [sdk] })).status).toBe(202);
    const [call] = (await t.api('calls', { session: 's_sdk_only' })).calls;
    expect((await t.api('call', { id: call!.id })).content).toBeNull();
    expect((await authedFetch(`${t.url}/api/calls/99999`)).status).toBe(404);
    const bad = await authedFetch(`${t.url}/api/calls/abc`);
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatch(/^id: /);
  });
});

describe('GET /api/sessions/:id', () => {
  it('says what client and server said at initialize, and the unanswered requests', async () => {
    const unanswered = [
      {
        rpc_id: '12',
        method: 'tools/call',
        tool_name: 'slow_tool',
        sent_at_ms: 1_764_000_000_000.5,
      },
    ];
    expect(
      (await postContent(t.url, { v: 1, session_id: 's_proxied00001', unanswered })).status,
    ).toBe(202);
    const detail = await t.api('session', { id: 's_proxied00001' });
    expect(detail.proxy).toEqual({
      protocol_version: '2025-06-18',
      client: { name: 'test-client', version: '1.2.3', capabilities: { roots: {} } },
      server: {
        name: 'fixture-server',
        version: '0.1.0',
        capabilities: { tools: {} },
        instructions: 'Be kind.',
      },
      transport: 'stdio',
    });
    expect(detail.unanswered).toEqual(unanswered);
    // An unanswered request is not a crashed call.
    expect(detail.session.outcomes.crashed).toBe(0);
    const sdk = await t.api('session', { id: 's_sdk_only' });
    expect(sdk.proxy).toBeNull();
    expect(sdk.unanswered).toEqual([]);
  });

  it('has a page for a proxied session whose only request was never answered (no call yet)', async () => {
    const unanswered = [
      { rpc_id: '1', method: 'tools/call', tool_name: 'slow_tool', sent_at_ms: BASE_MS + 0.25 },
    ];
    expect(
      (await postContent(t.url, { v: 1, session_id: 's_unanswered_only', unanswered })).status,
    ).toBe(202);
    const res = await authedFetch(`${t.url}/api/sessions/s_unanswered_only`);
    expect(res.status).toBe(200);
    const detail = (await res.json()) as {
      session: { id: string; calls: number; first_seen_ms: number; outcomes: { crashed: number } };
      calls: unknown[];
      unanswered: unknown[];
    };
    expect(detail.session).toMatchObject({ id: 's_unanswered_only', calls: 0 });
    expect(detail.session.first_seen_ms).toBe(BASE_MS);
    expect(detail.session.outcomes.crashed).toBe(0);
    expect(detail.calls).toEqual([]);
    expect(detail.unanswered).toEqual(unanswered);
    expect((await authedFetch(`${t.url}/api/sessions/s_never_seen`)).status).toBe(404);
  });
});
