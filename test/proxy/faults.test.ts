/**
 * Faults around the proxy: the server dies mid-call, the dashboard is down or hangs, a 10 MB
 * result, 100 calls in flight at once, malformed JSON from both sides. In every case the MCP
 * session must behave as it would without the proxy, and the proxy must not crash.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argsHash } from '../../src/canonical/node.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  connectClient,
  proxied,
  PY_SERVER,
  recordDir,
  RecordingStdioTransport,
  serverBytes,
  TS_SERVER,
  until,
} from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const callsOf = (key: string, n: number) =>
  until(
    () => t.api('calls', { project: key, limit: 10000 }),
    (r) => r.calls.length >= n,
  ).then((r) => r.calls);

/** Error code and message of a rejected call, to compare with and without the proxy. */
const failure = (e: unknown) => ({
  code: (e as { code?: unknown }).code,
  message: (e as Error).message,
});

describe('the server crashes mid-call', () => {
  it('the client sees the same failure and exit as without the proxy; the call is crashed', async () => {
    const run = async (command: string[]) => {
      const { client, transport } = await connectClient(command);
      await client.listTools();
      const error = await client.callTool({ name: 'die', arguments: { now: true } }).then(
        () => null,
        (e: unknown) => failure(e),
      );
      return { error, exit: await transport.exited, stderr: transport.stderr() };
    };
    const direct = await run(PY_SERVER);
    const through = await run(proxied(PY_SERVER, t.url, ['--key', 'mp_live_crash']));
    expect(direct.error).not.toBeNull();
    expect(through.error).toEqual(direct.error);
    expect(through.exit).toEqual(direct.exit);
    expect(through.exit.code).toBe(3);
    expect(through.stderr).toBe('');
    const [call] = await callsOf('mp_live_crash', 1);
    expect(call).toMatchObject({
      tool_name: 'die',
      outcome: 'crashed',
      args_hash: argsHash({ now: true }),
    });
  }, 60_000);
});

/** Answers the probe as a dashboard would, then never answers /v1/ingest. */
async function startHangingDashboard(): Promise<{ hanging: Server; url: string }> {
  const hanging: Server = createServer((req, res) => {
    if (req.url === '/api/status') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ version: 'x', dbPath: '/nowhere', endpoint: 'x' }));
    }
  });
  await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
  return { hanging, url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}` };
}

describe('the dashboard is down or hangs', () => {
  it('goes down mid-session: every call still answered, one stderr line says what was handed off', async () => {
    const gone = await startTestServer();
    const { client, transport } = await connectClient(proxied(TS_SERVER, gone.url));
    await client.listTools();
    expect(await client.callTool({ name: 'echo', arguments: { text: 'a' } })).toMatchObject({
      content: [{ text: 'a' }],
    });
    // The proxy found this dashboard and sent it the first call (in the pause after it).
    await expect
      .poll(async () => (await gone.api('calls', { limit: 5 })).calls.length, { timeout: 15_000 })
      .toBe(1);
    await gone.close();
    for (let i = 0; i < 5; i++)
      expect(await client.callTool({ name: 'add', arguments: { a: i, b: 1 } })).toMatchObject({
        content: [{ text: String(i + 1) }],
      });
    await client.close();
    expect((await transport.exited).code).toBe(0);
    // The key line (no --key: the server's name), then one line: what was handed off.
    const lines = transport.stderr().trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      "mcpulse-devtools proxy: project key px_ts-fixture (from the server's name 'ts-fixture'; --key KEY to choose)",
    );
    expect(lines[1]).toMatch(
      /^mcpulse-devtools proxy: handed the telemetry of 5 calls, 0 startups, \d+ messages to a background sender \(no answer from the dashboard at http:\/\/127\.0\.0\.1:\d+; spool \S+\); the MCP session itself was not affected$/,
    );
  }, 60_000);

  it('hangs on ingest: calls unaffected, the proxy exits within its flush budget, one line', async () => {
    const { hanging, url } = await startHangingDashboard();
    const { client, transport } = await connectClient(proxied(TS_SERVER, url));
    await client.listTools();
    const t0 = performance.now();
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'add', arguments: { a: i, b: i } });
    expect(performance.now() - t0).toBeLessThan(2000);
    const closing = performance.now();
    await client.close();
    await transport.exited;
    // The server exits at once; the proxy waits at most ~2 s for the dashboard, then gives up.
    expect(performance.now() - closing).toBeLessThan(6000);
    const lines = transport.stderr().trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('project key px_ts-fixture');
    expect(lines[1]).toContain('handed the telemetry of 3 calls, 1 startup, ');
    hanging.closeAllConnections();
    hanging.close();
  }, 60_000);

  it('is signalled while flushing (a client done waiting): exits at once, one line says what was handed off', async () => {
    const { hanging, url } = await startHangingDashboard();
    const { client, transport } = await connectClient(proxied(TS_SERVER, url));
    await client.listTools();
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'add', arguments: { a: i, b: i } });
    transport.child.stdin!.end(); // the server exits; the proxy is left flushing to a hung dashboard
    await new Promise((r) => setTimeout(r, 700));
    expect(transport.child.exitCode).toBeNull();
    const signalled = performance.now();
    transport.child.kill('SIGTERM');
    const exit = await transport.exited;
    // At once: the request in flight gets 1 s, then the rest is handed off (the TypeScript SDK
    // client would SIGKILL 2 s after its SIGTERM).
    expect(performance.now() - signalled).toBeLessThan(2000);
    expect(exit.code).toBe(0); // the server's own exit, as before
    const lines = transport.stderr().trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /handed the telemetry of 3 calls, 1 startup, \d+ messages to a background sender \(the client stopped the proxy \(SIGTERM\) before the dashboard took them; spool/,
    );
    hanging.closeAllConnections();
    hanging.close();
  }, 60_000);
});

describe('big and busy', () => {
  it('relays a 10 MB result byte for byte and measures it', async () => {
    const dir = recordDir();
    const { client, transport } = await connectClient(
      proxied(TS_SERVER, t.url, ['--key', 'mp_live_big']),
      { PROXY_TEST_RECORD_DIR: dir },
    );
    const bytes = 10 * 1024 * 1024;
    const result = (await client.callTool({ name: 'big', arguments: { bytes } })) as {
      content: { text: string }[];
    };
    expect(result.content[0]!.text.length).toBe(bytes);
    const after = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(after).toMatchObject({ content: [{ text: 'still here' }] });
    await client.close();
    await transport.exited;
    const server = serverBytes(dir);
    expect(transport.receivedBytes().equals(server.wrote)).toBe(true);
    expect(server.read.equals(transport.sentBytes())).toBe(true);
    const calls = await callsOf('mp_live_big', 2);
    const big = calls.find((c) => c.tool_name === 'big')!;
    expect(big).toMatchObject({ outcome: 'ok', response_bytes: JSON.stringify(result).length });
  }, 60_000);

  it('matches 100 concurrent calls, answered out of order, by id', async () => {
    const { client, transport } = await connectClient(
      proxied(TS_SERVER, t.url, ['--key', 'mp_live_busy']),
    );
    const inputs = Array.from({ length: 100 }, (_, i) => ({ a: i, b: i * 1000 }));
    const answers = await Promise.all(
      inputs.map((args) => client.callTool({ name: 'add', arguments: args })),
    );
    answers.forEach((answer, i) =>
      expect(answer).toEqual({
        content: [{ type: 'text', text: String(inputs[i]!.a + inputs[i]!.b) }],
      }),
    );
    await client.close();
    expect((await transport.exited).code).toBe(0);
    const calls = await callsOf('mp_live_busy', 100);
    expect(calls).toHaveLength(100);
    expect(calls.every((c) => c.outcome === 'ok' && c.tool_name === 'add')).toBe(true);
    expect(calls.map((c) => c.args_hash).sort()).toEqual(inputs.map((a) => argsHash(a)).sort());
    // Each answer's size is its own: "0+0" answers "0", the largest "99099".
    expect(new Set(calls.map((c) => c.response_bytes)).size).toBeGreaterThan(1);
  }, 60_000);
});

describe('malformed JSON from either side', () => {
  it('relays it untouched, never crashes, and keeps observing the valid traffic', async () => {
    const dir = recordDir();
    const transport = new RecordingStdioTransport(
      proxied(PY_SERVER, t.url, ['--key', 'mp_live_garbage']),
      {
        PLAIN_RECORD_DIR: dir,
      },
    );
    const received: unknown[] = [];
    transport.onmessage = (m) => received.push(m);
    transport.onerror = () => {};
    await transport.start();
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    };
    transport.writeRaw(JSON.stringify(init) + '\n');
    transport.writeRaw('{"jsonrpc":"2.0","id":2,"method":"tools/ca'); // a line cut in two…
    transport.writeRaw('ll","params":{"name":"echo","arguments":{"text":"ok"}}}\n'); // …completed
    transport.writeRaw('{not json at all\n');
    transport.writeRaw(Buffer.from([0xff, 0xfe, 0x7b, 0x0a])); // invalid UTF-8
    transport.writeRaw('[1,2,3]\n{"jsonrpc":"2.0"}\n\n   \n');
    transport.writeRaw(
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"garble"}}\n',
    );
    transport.writeRaw(
      '[{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fail"}},"junk"]\n',
    );
    transport.writeRaw(
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"end"}}}\n',
    );
    await until(
      async () => received.filter((m) => (m as { id?: unknown }).id === 5).length,
      (n) => n === 1,
    );
    await transport.close();
    expect((await transport.exited).code).toBe(0);
    const server = serverBytes(dir);
    expect(server.read.equals(transport.sentBytes())).toBe(true);
    expect(transport.receivedBytes().equals(server.wrote)).toBe(true);
    // The batch's answer came back as one array line, holding the call's result.
    expect(transport.receivedBytes().toString()).toContain('[{"jsonrpc":"2.0","id":4,"result"');
    const calls = await callsOf('mp_live_garbage', 4);
    expect(calls.map((c) => [c.tool_name, c.outcome]).sort()).toEqual([
      ['echo', 'ok'],
      ['echo', 'ok'],
      ['fail', 'tool_error'],
      ['garble', 'ok'],
    ]);
  }, 60_000);
});

describe('signals', () => {
  it('forwards SIGTERM to the server and exits the way the server did', async () => {
    const { client, transport } = await connectClient(
      proxied(PY_SERVER, t.url, ['--key', 'px_signal']),
    );
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: { text: 'before' } });
    transport.child.kill('SIGTERM');
    // Python dies of the signal; the proxy reports it as 128 + 15, as a shell would.
    expect(await transport.exited).toEqual({ code: 143, signal: null });
    expect(transport.stderr()).toBe('');
    const calls = await callsOf('px_signal', 1);
    expect(calls[0]).toMatchObject({ tool_name: 'echo', outcome: 'ok' });
  }, 60_000);
});
