/**
 * Content capture end to end, against real servers: the real `@modelcontextprotocol/server-
 * everything` (stdio), the plain Python server, and the TypeScript fixture over Streamable HTTP,
 * each behind the real proxy, sending to a real dashboard. Stored messages equal the bytes the
 * client and the server exchanged (where nothing was redacted), arguments and error texts land
 * on the right call, secrets are redacted and the cap holds, the key is the server's name, HTTP
 * clients are separate sessions, and a clean end stores unanswered requests, not crashes.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_BODY_CAP, REDACTED } from '../../src/shared/proxy-content.js';
import { spawnCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { connectClient, proxied, PY_SERVER, RecordingStdioTransport, until } from './helpers.js';
import { startHttpFixture } from './servers/http-server.js';

/**
 * Stderr without the one line a proxy prints when the dashboard had not taken everything by the
 * time the client stopped it (a busy machine): the telemetry is then handed to a background
 * sender and still arrives — which the test checks by reading it back. Anything else is a fault.
 */
const otherThanHandOff = (stderr: string): string =>
  stderr.replace(
    /^mcpulse-devtools proxy: handed the telemetry of .* to a background sender .*; the MCP session itself was not affected\n/m,
    '',
  );

const EVERYTHING = [
  process.execPath,
  join(
    import.meta.dirname,
    '..',
    '..',
    'node_modules',
    '@modelcontextprotocol',
    'server-everything',
    'dist',
    'index.js',
  ),
  'stdio',
];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** The one session of `project`, once its calls have arrived. */
async function sessionOf(project: string, calls: number): Promise<string> {
  const r = await until(
    () => t.api('calls', { project, limit: 1000 }),
    (r) => r.calls.length >= calls,
  );
  return r.calls[0]!.session_id;
}

/** The session's stored messages, once at least `n` have arrived. */
const messagesOf = (session: string, n: number) =>
  until(
    () => t.api('messages', { session, limit: 5000 }),
    (r) => r.messages.length >= n,
  ).then((r) => r.messages);

/** The lines of a byte stream, without their `\n`. */
const lines = (bytes: Buffer) =>
  bytes
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');

describe('stdio: server-everything behind the proxy, no --key', () => {
  it('keys the project by serverInfo.name, says it once, stores every message as relayed', async () => {
    const transport = new RecordingStdioTransport(proxied(EVERYTHING, t.url));
    const client = new Client(
      { name: 'content-test', version: '1.0.0' },
      { capabilities: { sampling: {} } },
    );
    await client.connect(transport);
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      model: 'test-model',
      role: 'assistant',
      content: { type: 'text', text: 'sampled answer' },
    }));
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: { message: 'hello everything' } });
    await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    // The server asks the client to sample: a server-to-client request and its answer.
    await client.callTool({
      name: 'trigger-sampling-request',
      arguments: { prompt: 'say hi', maxTokens: 10 },
    });
    await client.listResources().catch(() => null);
    await client.listPrompts().catch(() => null);
    const failed = await client.callTool({ name: 'no-such-tool', arguments: {} }).then(
      (r) => r,
      (e: Error) => e.message,
    );
    await transport.close();

    const key = 'px_mcp-servers-everything';
    expect(transport.stderr().match(/project key \S+/g)).toEqual([`project key ${key}`]);
    const session = await sessionOf(key, 4);
    const sent = lines(transport.sentBytes());
    const received = lines(transport.receivedBytes());
    const stored = await messagesOf(session, sent.length + received.length);
    // Nothing here holds a secret: each side's bodies are the bytes exactly, in order.
    expect(stored.filter((m) => m.direction === 'client').map((m) => m.body)).toEqual(sent);
    expect(stored.filter((m) => m.direction === 'server').map((m) => m.body)).toEqual(received);
    expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i));
    const kinds = new Set(stored.map((m) => `${m.direction} ${m.kind} ${m.method}`));
    expect(kinds).toContain('server request sampling/createMessage');
    expect(kinds).toContain('client result sampling/createMessage');
    expect(kinds).toContain('client request resources/list');
    expect(kinds).toContain('client request prompts/list');
    expect(kinds).toContain('client notification notifications/initialized');

    // The call's content: its arguments, and the answer of the right call.
    const { calls } = await t.api('calls', { project: key, limit: 100 });
    const echo = calls.find((c) => c.tool_name === 'echo')!;
    const detail = await t.api('call', { id: echo.id });
    expect(JSON.parse(detail.content!.arguments!)).toEqual({ message: 'hello everything' });
    expect(detail.content!.result).toContain('hello everything');
    const unknown = calls.find((c) => c.tool_name === 'no-such-tool')!;
    const unknownDetail = await t.api('call', { id: unknown.id });
    expect(unknownDetail.content!.error).toBeTruthy();
    expect(JSON.stringify(failed)).toContain(unknownDetail.content!.error!.slice(0, 20));

    // What both sides said at initialize.
    const view = await t.api('session', { id: session });
    expect(view.proxy).toMatchObject({
      client: { name: 'content-test', version: '1.0.0' },
      server: { name: 'mcp-servers/everything' },
      transport: 'stdio',
    });
    expect(view.proxy!.client.capabilities).toHaveProperty('sampling');
    expect(view.proxy!.server.capabilities).toHaveProperty('tools');
  }, 90_000);
});

describe('stdio: the plain Python server', () => {
  it('redacts secrets (defaults and --redact-keys), caps big bodies, keeps error texts', async () => {
    const key = 'mp_live_content_py';
    const { client, transport } = await connectClient(
      proxied(PY_SERVER, t.url, ['--key', key, '--redact-keys', 'pin']),
    );
    await client.listTools();
    await client.callTool({
      name: 'echo',
      arguments: { text: 'keep me', password: 'hunter2', pin: '1234', api_key: 'sk-live-9' },
    });
    await client.callTool({ name: 'big', arguments: { mb: 1 } });
    await client.callTool({ name: 'fail', arguments: {} });
    const explode = await client.callTool({ name: 'explode', arguments: {} }).then(
      () => '',
      (e: Error) => e.message,
    );
    await transport.close();
    expect(otherThanHandOff(transport.stderr())).toBe('');

    const session = await sessionOf(key, 4);
    const stored = await messagesOf(session, 10);
    const echoRequest = stored.find((m) => m.kind === 'request' && m.body.includes('keep me'))!;
    expect(echoRequest.body).not.toMatch(/hunter2|1234|sk-live-9/);
    expect(JSON.parse(echoRequest.body).params.arguments).toEqual({
      text: 'keep me',
      password: REDACTED,
      pin: REDACTED,
      api_key: REDACTED,
    });
    const big = stored.find((m) => m.direction === 'server' && m.bytes > MESSAGE_BODY_CAP)!;
    expect(big.truncated).toBe(true);
    expect(Buffer.byteLength(big.body)).toBeLessThanOrEqual(MESSAGE_BODY_CAP);
    expect(big.bytes).toBeGreaterThan(1024 * 1024);

    const { calls } = await t.api('calls', { project: key, limit: 100 });
    const byTool = (name: string) => calls.find((c) => c.tool_name === name)!;
    const fail = await t.api('call', { id: byTool('fail').id });
    expect(fail.content!.error).toBeTruthy();
    const exploded = await t.api('call', { id: byTool('explode').id });
    expect(explode).toContain(exploded.content!.error!);
    const echo = await t.api('call', { id: byTool('echo').id });
    expect(JSON.parse(echo.content!.arguments!)).toMatchObject({
      text: 'keep me',
      password: REDACTED,
    });
  }, 60_000);

  it('--no-content: no message bodies, the session info still stored', async () => {
    const key = 'mp_live_content_off';
    const { client, transport } = await connectClient(
      proxied(PY_SERVER, t.url, ['--key', key, '--no-content']),
    );
    await client.callTool({ name: 'echo', arguments: { text: 'not kept' } });
    await transport.close();
    const session = await sessionOf(key, 1);
    const view = await until(
      () => t.api('session', { id: session }),
      (v) => v.proxy !== null,
    );
    expect(view.proxy!.server.name).toBe('plain-python');
    const { messages } = await t.api('messages', { session });
    expect(messages).toEqual([]);
  }, 60_000);
});

const SILENT_SERVER = `
import json, sys
for line in iter(sys.stdin.readline, ''):
    m = json.loads(line)
    if m.get("method") == "tools/list":
        tools = [{"name": n, "inputSchema": {"type": "object"}} for n in ("echo", "lookup")]
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {"tools": tools}}), flush=True)
    if m.get("method") == "tools/call" and m["params"]["name"] == "echo":
        text = [{"type": "text", "text": "echoed"}]
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {"content": text}}), flush=True)
`;

describe('a clean end with requests left open', () => {
  it('the server exits 0 after the client closes: unanswered, not crashed', async () => {
    const key = 'mp_live_content_unanswered';
    // A server that lists its tools and answers only `echo`, then exits 0 at end of input.
    const silent = ['python3', '-c', SILENT_SERVER];
    const transport = new RecordingStdioTransport(proxied(silent, t.url, ['--key', key]));
    await transport.start();
    transport.writeRaw(
      '{"jsonrpc":"2.0","id":0,"method":"tools/list"}\n' +
        '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{}}}\n' +
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup","arguments":{}}}\n' +
        '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///x"}}\n',
    );
    await until(
      async () => transport.receivedBytes().toString(),
      (out) => out.includes('echoed'),
    );
    await transport.close();
    expect(await transport.exited).toEqual({ code: 0, signal: null });
    expect(otherThanHandOff(transport.stderr())).toBe('');
    const id = await sessionOf(key, 1);
    const view = await until(
      () => t.api('session', { id }),
      (v) => v.unanswered.length === 2,
    );
    expect(view.unanswered.map((u) => [u.method, u.tool_name])).toEqual([
      ['tools/call', 'lookup'],
      ['resources/read', null],
    ]);
    const { calls } = await t.api('calls', { project: key });
    expect(calls.map((c) => [c.tool_name, c.outcome])).toEqual([['echo', 'ok']]);
  }, 60_000);
});

describe('HTTP: concurrent clients through one proxy', () => {
  it('each Mcp-Session-Id is its own session, never merged', async () => {
    const fixture = await startHttpFixture();
    const proxy = spawnCli([
      'proxy',
      '--http',
      '--target',
      fixture.url,
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
      const url = new URL(/relaying (\S+) →/.exec(line)![1]!);
      const clients = await Promise.all(
        [1, 2, 3].map(async (n) => {
          const client = new Client({ name: `http-client-${n}`, version: '1.0.0' });
          await client.connect(new StreamableHTTPClientTransport(url));
          return { n, client };
        }),
      );
      await Promise.all(
        clients.map(async ({ n, client }) => {
          for (let i = 0; i < n; i++)
            await client.callTool({ name: 'echo', arguments: { text: `client ${n} call ${i}` } });
        }),
      );
      for (const { client } of clients) await client.close();
      const key = 'px_ts-fixture';
      const { calls } = await until(
        () => t.api('calls', { project: key, limit: 100 }),
        (r) => r.calls.length >= 6,
      );
      const bySession = new Map<string, Set<string>>();
      for (const c of calls) {
        const set = bySession.get(c.session_id) ?? new Set();
        set.add(c.client_name);
        bySession.set(c.session_id, set);
      }
      expect(bySession.size).toBe(3);
      for (const names of bySession.values()) expect(names.size).toBe(1);
      const counts = [...bySession.keys()].map(
        (s) => calls.filter((c) => c.session_id === s).length,
      );
      expect(counts.sort()).toEqual([1, 2, 3]);
      // Each session's messages are its own.
      for (const [session, names] of bySession) {
        const stored = await messagesOf(session, 1);
        const n = [...names][0]!.slice(-1);
        for (const m of stored.filter((m) => m.body.includes('call ')))
          expect(m.body).toContain(`client ${n} call`);
      }
      expect(proxy.err().match(/project key \S+/g)).toEqual([`project key ${key}`]);
    } finally {
      proxy.kill('SIGTERM');
      await new Promise((r) => proxy.once('close', r));
      await fixture.close();
    }
  }, 90_000);
});
