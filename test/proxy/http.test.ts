/**
 * `proxy --http`: a real SDK client over Streamable HTTP → the real proxy → a TypeScript SDK
 * server over Streamable HTTP. SSE answers stream through as they are written, bodies are
 * byte-identical on both sides, and the dashboard shows the session as an SDK would send it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argsHash } from '../../src/canonical/node.js';
import type { CallRow, StartupRow } from '../../src/store/index.js';
import { spawnCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from './helpers.js';
import { startHttpFixture, type Exchange } from './servers/http-server.js';

const KEY = 'mp_live_proxy_http_test';

/** A fetch that keeps a copy of each request body and each response's bytes. */
function recordingFetch(into: Exchange[]): typeof fetch {
  return async (input, init) => {
    const exchange: Exchange = {
      method: init?.method ?? 'GET',
      request: Buffer.from(typeof init?.body === 'string' ? init.body : ''),
      response: [],
    };
    into.push(exchange);
    const res = await fetch(input, init);
    if (!res.body) return res;
    const [mine, theirs] = res.body.tee();
    void (async () => {
      for await (const chunk of theirs) exchange.response.push(Buffer.from(chunk));
    })().catch(() => {});
    return new Response(mine, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

describe('proxy --http in front of a Streamable HTTP server', () => {
  let t: TestServer;
  let fixture: Awaited<ReturnType<typeof startHttpFixture>>;
  let proxy: ReturnType<typeof spawnCli>;
  let proxyUrl: string;
  const clientSide: Exchange[] = [];
  const progressAt: number[] = [];
  let resultAt = 0;
  let calls: CallRow[];
  let startups: StartupRow[];
  let proxyExit: number | null;

  beforeAll(async () => {
    t = await startTestServer();
    fixture = await startHttpFixture();
    proxy = spawnCli([
      'proxy',
      '--http',
      '--target',
      fixture.url,
      '--listen',
      '0',
      '--url',
      t.url,
      '--key',
      KEY,
    ]);
    const line = await until(
      async () => proxy.err(),
      (err) => /relaying (\S+) →/.test(err),
      20_000,
    );
    proxyUrl = /relaying (\S+) →/.exec(line)![1]!;

    const client = new Client({ name: 'vscode-http', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(proxyUrl), { fetch: recordingFetch(clientSide) }),
    );
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: { text: 'over http' } });
    await client.callTool({ name: 'search', arguments: { query: 'q' } });
    await client.callTool({ name: 'fail', arguments: {} });
    const t0 = performance.now();
    await client.callTool({ name: 'slow', arguments: { ms: 900, steps: 3 } }, undefined, {
      onprogress: () => progressAt.push(performance.now() - t0),
    });
    resultAt = performance.now() - t0;
    await Promise.all(
      [1, 2, 3].map((a) => client.callTool({ name: 'add', arguments: { a, b: a } })),
    );
    await client.close();
    proxy.kill('SIGTERM');
    proxyExit = await new Promise((r) => proxy.once('exit', r));
    calls = (
      await until(
        () => t.api('calls', { project: KEY }),
        (r) => r.calls.length >= 7,
      )
    ).calls;
    startups = (await t.api('startups', { project: KEY })).startups;
  }, 60_000);
  afterAll(async () => {
    await fixture.close();
    await t.close();
  });

  it('streams SSE through as it is written, not when the answer is complete', () => {
    expect(progressAt).toHaveLength(3);
    // The first progress event arrived about a third of the way in, long before the result.
    expect(progressAt[0]!).toBeLessThan(resultAt - 400);
  });

  it('passes every POST body and answer through byte for byte', () => {
    const posts = (side: Exchange[]) =>
      side
        .filter((e) => e.method === 'POST')
        .map((e) => ({
          request: e.request.toString('base64'),
          response: Buffer.concat(e.response).toString('base64'),
        }))
        .sort((a, b) => a.request.localeCompare(b.request));
    const client = posts(clientSide);
    expect(client.length).toBeGreaterThanOrEqual(9);
    expect(client).toEqual(posts(fixture.exchanges));
  });

  it('records the calls with wire outcomes, hashes and emptiness, and flushes on exit', () => {
    expect(proxyExit).toBe(0);
    const of = (name: string) => calls.filter((c) => c.tool_name === name);
    expect(of('echo')[0]).toMatchObject({
      outcome: 'ok',
      args_hash: argsHash({ text: 'over http' }),
      client_name: 'vscode-http',
    });
    expect(of('search')[0]).toMatchObject({ outcome: 'ok', is_empty: true });
    expect(of('fail')[0]).toMatchObject({ outcome: 'tool_error' });
    expect(of('slow')[0]!.duration_ms).toBeGreaterThanOrEqual(800);
    expect(
      of('add')
        .map((c) => c.args_hash)
        .sort(),
    ).toEqual([1, 2, 3].map((a) => argsHash({ a, b: a })).sort());
    expect(new Set(calls.map((c) => c.session_id)).size).toBe(1);
  });

  it('sends a startup marked as proxied over http', () => {
    expect(startups).toHaveLength(1);
    expect(startups[0]).toMatchObject({ client_name: 'vscode-http' });
    expect(startups[0]!.extra).toMatchObject({
      transport: 'http',
      sdk: expect.stringMatching(/^mcpulse-devtools-proxy@/),
    });
    expect(startups[0]!.tools.map((x) => x.name)).toContain('dead_tool');
  });
});

describe('proxy --http when the target is down', () => {
  it('answers 502 with a JSON-RPC error for the request, and keeps serving', async () => {
    const t = await startTestServer();
    // A port that was free a moment ago: nothing listens there.
    const gone = await startHttpFixture();
    const target = gone.url;
    await gone.close();
    const proxy = spawnCli([
      'proxy',
      '--http',
      '--target',
      target,
      '--listen',
      '0',
      '--url',
      t.url,
    ]);
    try {
      const line = await until(
        async () => proxy.err(),
        (err) => /relaying (\S+) →/.test(err),
        20_000,
      );
      const url = /relaying (\S+) →/.exec(line)![1]!;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'x' },
      });
      const post = () =>
        fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body,
        });
      // Issue 41: not a closed connection but an answer a client can show.
      for (let i = 0; i < 2; i++) {
        const res = await post();
        expect(res.status).toBe(502);
        expect(res.headers.get('content-type')).toBe('application/json');
        const answer = (await res.json()) as {
          jsonrpc: string;
          id: unknown;
          error: { code: number; message: string; data: { target: string; cause: string } };
        };
        expect(answer).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32000 } });
        expect(answer.error.message).toBe(
          `mcpulse-devtools proxy: the MCP server at ${new URL(target).href} could not be reached (ECONNREFUSED)`,
        );
        expect(answer.error.data.cause).toBe('ECONNREFUSED');
      }
      expect(proxy.exitCode).toBeNull();
      proxy.kill('SIGTERM');
      expect(await new Promise((r) => proxy.once('exit', r))).toBe(0);
      // The two calls the server never answered are recorded as crashed.
      const { calls } = await until(
        () => t.api('calls'),
        (r) => r.calls.length >= 2,
      );
      expect(calls.map((c) => c.outcome)).toEqual(['crashed', 'crashed']);
    } finally {
      proxy.kill('SIGKILL');
      await t.close();
    }
  }, 60_000);
});

describe('proxy --http in front of a server that answers with JSON bodies', () => {
  it('reads the JSON answers as it reads SSE ones', async () => {
    const t = await startTestServer();
    const fixture = await startHttpFixture({ json: true });
    const proxy = spawnCli([
      'proxy',
      '--http',
      '--target',
      fixture.url,
      '--listen',
      '0',
      '--url',
      t.url,
      '--key',
      'px_json',
    ]);
    try {
      const line = await until(
        async () => proxy.err(),
        (err) => /relaying (\S+) →/.test(err),
        20_000,
      );
      const client = new Client({ name: 'json-client', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(/relaying (\S+) →/.exec(line)![1]!)),
      );
      await client.listTools();
      await client.callTool({ name: 'echo', arguments: { text: 'json' } });
      await client.callTool({ name: 'search', arguments: { query: 'none' } });
      await client.close();
      proxy.kill('SIGTERM');
      expect(await new Promise((r) => proxy.once('exit', r))).toBe(0);
      const { calls } = await until(
        () => t.api('calls', { project: 'px_json' }),
        (r) => r.calls.length >= 2,
      );
      expect(calls.map((c) => [c.tool_name, c.outcome, c.is_empty, c.client_name])).toEqual([
        ['echo', 'ok', false, 'json-client'],
        ['search', 'ok', true, 'json-client'],
      ]);
      // The JSON answers really were JSON, not SSE.
      expect(
        fixture.exchanges.some((e) => Buffer.concat(e.response).toString().startsWith('{"result"')),
      ).toBe(true);
    } finally {
      proxy.kill('SIGKILL');
      await fixture.close();
      await t.close();
    }
  }, 60_000);
});
