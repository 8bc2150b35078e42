import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { argsHash } from '../../src/canonical/node.js';
import { createProducer, type CallPayload, type StartupPayload } from '../../src/producer/index.js';
import { connect, recordingFetch, until } from './producer-helpers.js';

/** A server with one tool per outcome. */
function exampleServer(): McpServer {
  const s = new McpServer({ name: 'example', version: '1.0.0' });
  s.registerTool('echo', { inputSchema: { text: z.string().min(1) } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  s.registerTool('nothing', {}, async () => ({ content: [{ type: 'text', text: ' [ ] ' }] }));
  s.registerTool('fails', {}, async () => ({
    isError: true,
    content: [{ type: 'text', text: 'no such row' }],
  }));
  s.registerTool('throws', {}, async () => {
    throw new Error('boom');
  });
  s.registerTool('structured', { outputSchema: { rows: z.array(z.number()) } }, async () => ({
    // The text part alone would be empty; the structured content, which decides, is not.
    content: [{ type: 'text', text: '[]' }],
    structuredContent: { rows: [] },
  }));
  return s;
}

const calls = (p: ReturnType<typeof recordingFetch>): CallPayload[] =>
  p.payloads().filter((x): x is CallPayload => x.type === 'call');

describe('producer: what a call becomes on the wire', () => {
  it('classifies the four outcomes, measures the result the client got, and hashes the arguments', async () => {
    const rec = recordingFetch();
    const producer = createProducer({
      endpoint: 'http://receiver/',
      key: 'mp_live_test',
      fetch: rec.fetch,
    });
    const server = producer.watch(exampleServer());
    const client = await connect(server, 'claude-ai');
    const seen: unknown[] = [];
    const call = async (name: string, args?: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      seen.push(r);
    };
    await call('echo', { text: 'café 🚀' });
    await call('echo', { text: 42 });
    await call('nothing');
    await call('fails');
    await call('throws');
    await call('no_such_tool', { q: 1 });
    await call('structured');
    await producer.close();

    const sent = calls(rec);
    expect(sent.map((c) => [c.tool_name, c.outcome, c.is_empty])).toEqual([
      ['echo', 'ok', false],
      ['echo', 'bad_args', false],
      ['nothing', 'ok', true],
      ['fails', 'tool_error', false],
      ['throws', 'crashed', false],
      ['no_such_tool', 'bad_args', false],
      ['structured', 'ok', false],
    ]);
    // response_bytes: UTF-16 length of the compact JSON of exactly what the client received.
    sent.forEach((c, i) => expect(c.response_bytes).toBe(JSON.stringify(seen[i]).length));
    expect(sent[0]!.args_hash).toBe(argsHash({ text: 'café 🚀' }));
    expect(sent[1]!.args_hash).toBe(argsHash({ text: 42 }));
    expect(sent[2]!.args_hash).toBe('44136fa355b3'); // absent arguments hash as {}
    for (const c of sent) {
      expect(c).toMatchObject({
        v: 1,
        type: 'call',
        client_name: 'claude-ai',
        session_id: producer.sessionId,
      });
      expect(c.started_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Number.isInteger(c.duration_ms) && c.duration_ms >= 0).toBe(true);
      expect(Object.keys(c).sort()).toEqual([
        'args_hash',
        'client_name',
        'duration_ms',
        'is_empty',
        'outcome',
        'response_bytes',
        'session_id',
        'started_at',
        'tool_name',
        'type',
        'v',
      ]);
    }
    expect(producer.sessionId).toMatch(/^s_[0-9a-f]{12}$/);
    expect(rec.requests[0]!.url).toBe('http://receiver/v1/ingest');
    expect(rec.requests[0]!.headers).toMatchObject({
      authorization: 'Bearer mp_live_test',
      'content-type': 'application/json',
    });
    // Nothing the client sent or received is in any payload.
    expect(JSON.stringify(rec.payloads())).not.toMatch(/café|no such row|boom/);
  });

  it('sends one startup per handshake with each tool’s schema size as tools/list serves it', async () => {
    const rec = recordingFetch();
    const producer = createProducer({ endpoint: 'http://receiver', key: 'k', fetch: rec.fetch });
    const a = producer.watch(exampleServer());
    const b = producer.watch(exampleServer());
    const ca = await connect(a, 'first');
    await connect(b, 'second');
    const { tools } = await ca.listTools();
    await until(() => producer.stats().buffered === 2);
    await producer.close();
    const startups = rec.payloads().filter((p): p is StartupPayload => p.type === 'startup');
    expect(startups.map((s) => s.client_name)).toEqual(['first', 'second']);
    expect(new Set(startups.map((s) => s.session_id))).toEqual(new Set([producer.sessionId]));
    expect(startups[0]!.tools).toEqual(
      tools.map((t) => ({ name: t.name, schema_bytes: JSON.stringify(t).length })),
    );
  });

  it('measures tools registered before and after watch, and a callback swapped by update()', async () => {
    const rec = recordingFetch();
    const producer = createProducer({ endpoint: 'http://r', key: 'k', fetch: rec.fetch });
    const server = new McpServer({ name: 'late', version: '1' });
    server.registerTool('before', {}, async () => ({ content: [{ type: 'text', text: 'x' }] }));
    producer.watch(server);
    producer.watch(server); // idempotent: no double counting
    const after = server.registerTool('after', {}, async () => ({
      content: [{ type: 'text', text: 'y' }],
    }));
    after.update({
      callback: async () => {
        throw new Error('now broken');
      },
    });
    const client = await connect(server);
    await client.callTool({ name: 'before' });
    await client.callTool({ name: 'after' });
    await producer.close();
    expect(calls(rec).map((c) => [c.tool_name, c.outcome])).toEqual([
      ['before', 'ok'],
      ['after', 'crashed'],
    ]);
  });
});

describe('producer: batching and delivery', () => {
  it('flushes at 30 payloads, and on the timer for fewer', async () => {
    const rec = recordingFetch();
    const producer = createProducer({
      endpoint: 'http://r',
      key: 'k',
      fetch: rec.fetch,
      flushEveryMs: 150,
    });
    const client = await connect(producer.watch(exampleServer()));
    // 1 startup + 29 calls = 30 → one request at once, without waiting for the timer.
    for (let i = 0; i < 29; i++) await client.callTool({ name: 'nothing' });
    await until(() => rec.requests.length === 1, 100);
    expect(rec.requests[0]!.batch).toHaveLength(30);
    await client.callTool({ name: 'nothing' });
    expect(rec.requests).toHaveLength(1);
    await until(() => rec.requests.length === 2, 1000);
    expect(rec.requests[1]!.batch).toHaveLength(1);
    await producer.close();
  });

  it('keeps at most maxBuffered, dropping the oldest', async () => {
    const rec = recordingFetch();
    const producer = createProducer({
      endpoint: 'http://r',
      key: 'k',
      fetch: rec.fetch,
      maxBuffered: 5,
      flushAt: 100,
      flushEveryMs: 60_000,
    });
    const client = await connect(producer.watch(exampleServer()));
    for (let i = 1; i <= 8; i++)
      await client.callTool({ name: 'echo', arguments: { text: `n${i}` } });
    expect(producer.stats()).toMatchObject({ buffered: 5, dropped: 4 }); // the startup and calls 1–3
    await producer.close();
    expect(calls(rec).map((c) => c.args_hash)).toEqual(
      [4, 5, 6, 7, 8].map((i) => argsHash({ text: `n${i}` })),
    );
  });

  it('drops a refused or failed batch for good (no retry) and never throws or blocks a call', async () => {
    let mode: 'refuse' | 'throw' | 'hang' | 'ok' = 'refuse';
    const rec = recordingFetch(async (_n, signal) => {
      if (mode === 'refuse') return new Response('{"error":"nope"}', { status: 429 });
      if (mode === 'throw') throw new TypeError('fetch failed');
      if (mode === 'hang') {
        return new Promise<Response>((_, reject) =>
          signal?.addEventListener('abort', () => reject(signal.reason)),
        );
      }
      return new Response(null, { status: 200 });
    });
    const producer = createProducer({
      endpoint: 'http://r',
      key: 'k',
      fetch: rec.fetch,
      timeoutMs: 200,
    });
    const client = await connect(producer.watch(exampleServer()));
    await client.callTool({ name: 'nothing' });
    await producer.flush();
    mode = 'throw';
    await client.callTool({ name: 'nothing' });
    await producer.flush();
    mode = 'hang';
    await client.callTool({ name: 'nothing' });
    const flushing = producer.flush();
    // While the request hangs, tool calls answer at once.
    const t0 = Date.now();
    const r = await client.callTool({ name: 'echo', arguments: { text: 'still fast' } });
    expect(Date.now() - t0).toBeLessThan(150);
    expect(r.content).toEqual([{ type: 'text', text: 'still fast' }]);
    mode = 'ok';
    await flushing; // resolves after the 200 ms timeout, never rejects
    await producer.close();
    expect(rec.requests.map((q) => q.batch.length)).toEqual([2, 1, 1, 1]);
    expect(producer.stats()).toMatchObject({ sent: 1, dropped: 4, batches: 4, failedBatches: 3 });
  });

  it('is switched off by an empty key or a missing endpoint, and bad options never throw', async () => {
    const rec = recordingFetch();
    for (const opts of [
      { endpoint: 'http://r', key: '' },
      { endpoint: '', key: 'k' },
      {} as never,
    ]) {
      const producer = createProducer({ ...opts, fetch: rec.fetch });
      expect(producer.enabled).toBe(false);
      const client = await connect(producer.watch(exampleServer()));
      await client.callTool({ name: 'nothing' });
      await producer.close();
    }
    expect(rec.requests).toHaveLength(0);
    const weird = createProducer({
      endpoint: 'http://r',
      key: 'k',
      flushAt: -3,
      maxBuffered: Number.NaN,
      fetch: rec.fetch,
    });
    expect(weird.enabled).toBe(true);
    expect(() => weird.watch({} as never)).not.toThrow();
  });
});
