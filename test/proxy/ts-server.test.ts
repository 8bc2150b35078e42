/**
 * A real SDK client → the real `proxy` command → a real TypeScript SDK server, with the real
 * dashboard behind it: what the dashboard shows, and that every byte went through unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argsHash } from '../../src/canonical/node.js';
import type { CallRow, StartupRow } from '../../src/store/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  connectClient,
  proxied,
  recordDir,
  serverBytes,
  TS_SERVER,
  until,
  type Exit,
  type RecordingStdioTransport,
} from './helpers.js';

const KEY = 'mp_live_proxy_ts_test';

describe('proxy in front of a TypeScript SDK server', () => {
  let t: TestServer;
  let transport: RecordingStdioTransport;
  let exit: Exit;
  let dir: string;
  let calls: CallRow[];
  let startups: StartupRow[];
  const progress: number[] = [];
  const results: Record<string, unknown> = {};
  const args = {
    echo: { text: 'héllo 🚀 <&>', nested: undefined },
    search: { query: 'nothing here' },
    bad: { text: 5 },
    add: { b: 2, a: 1.0 },
  };

  beforeAll(async () => {
    t = await startTestServer();
    dir = recordDir();
    const connected = await connectClient(
      proxied(TS_SERVER, t.url, ['--key', KEY]),
      { PROXY_TEST_RECORD_DIR: dir },
      'proxy-ts-client',
    );
    transport = connected.transport;
    const { client } = connected;
    results.list = await client.listTools();
    results.echo = await client.callTool({ name: 'echo', arguments: { text: args.echo.text } });
    results.search = await client.callTool({ name: 'search', arguments: args.search });
    results.fail = await client.callTool({ name: 'fail', arguments: {} });
    results.throws = await client.callTool({ name: 'throws' });
    results.bad = await client.callTool({ name: 'echo', arguments: args.bad });
    results.add = await client.callTool({ name: 'add', arguments: args.add });
    results.slow = await client.callTool(
      { name: 'slow', arguments: { ms: 60, steps: 3 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    await client.close();
    exit = await transport.exited;
    calls = (
      await until(
        () => t.api('calls', { project: KEY }),
        (r) => r.calls.length >= 7,
      )
    ).calls;
    startups = (await t.api('startups', { project: KEY })).startups;
  }, 60_000);
  afterAll(() => t.close());

  it('leaves the session alone: the client got every answer, the proxy exits as the server did', () => {
    expect(exit).toEqual({ code: 0, signal: null });
    expect(transport.stderr()).toBe('');
    expect(results.echo).toEqual({ content: [{ type: 'text', text: args.echo.text }] });
    // All three progress notifications crossed the proxy (the SDK client handles notifications
    // a tick after answers, so one that shares a chunk with the result can reach it too late).
    const received = transport.receivedBytes().toString();
    expect(received.match(/"method":"notifications\/progress"/g)).toHaveLength(3);
    expect(progress.length).toBeGreaterThan(0);
  });

  it('relays every byte unchanged, both ways', () => {
    const server = serverBytes(dir);
    expect(server.read.length).toBeGreaterThan(0);
    expect(server.read.equals(transport.sentBytes())).toBe(true);
    expect(transport.receivedBytes().equals(server.wrote)).toBe(true);
  });

  it('records one session, the client, and the startup marked as proxied', async () => {
    expect(new Set(calls.map((c) => c.session_id)).size).toBe(1);
    const session = calls[0]!.session_id;
    expect(session).toMatch(/^s_[0-9a-f]{12}$/);
    expect(new Set(calls.map((c) => c.client_name))).toEqual(new Set(['proxy-ts-client']));
    expect(startups).toHaveLength(1);
    const startup = startups[0]!;
    expect(startup.session_id).toBe(session);
    expect(startup.client_name).toBe('proxy-ts-client');
    expect(startup.extra).toMatchObject({
      sdk: expect.stringMatching(/^mcpulse-devtools-proxy@/),
      transport: 'stdio',
      protocol_version: expect.any(String),
    });
    // schema_bytes by the wire rule, from the tools/list answer the client received.
    const listLine = transport
      .receivedBytes()
      .toString('utf8')
      .split('\n')
      .find((l) => l.includes('"tools":['))!;
    const listed = (JSON.parse(listLine) as { result: { tools: { name: string }[] } }).result.tools;
    expect(startup.tools).toEqual(
      listed.map((tool) => ({ name: tool.name, schema_bytes: JSON.stringify(tool).length })),
    );
    const { sessions } = await t.api('sessions', { project: KEY });
    expect(sessions.find((s) => s.id === session)?.sdk).toMatch(/^mcpulse-devtools-proxy@/);
  });

  it('classifies outcomes from the wire, hashes arguments as the TS SDK does, and sees empties', () => {
    const byTool = (name: string) => calls.filter((c) => c.tool_name === name);
    const [echo, bad] = byTool('echo');
    expect(echo).toMatchObject({
      outcome: 'ok',
      is_empty: false,
      args_hash: argsHash({ text: args.echo.text }),
    });
    expect(echo!.response_bytes).toBe(JSON.stringify(results.echo).length);
    expect(byTool('search')[0]).toMatchObject({
      outcome: 'ok',
      is_empty: true,
      args_hash: argsHash(args.search),
    });
    expect(byTool('fail')[0]).toMatchObject({
      outcome: 'tool_error',
      is_empty: false,
      args_hash: argsHash({}),
    });
    // McpServer turns a throw into isError before it reaches the wire: a proxy sees tool_error.
    expect(byTool('throws')[0]).toMatchObject({ outcome: 'tool_error', args_hash: '44136fa355b3' });
    // …and a failed validation too (the TS SDK answers isError, not -32602).
    expect(bad).toMatchObject({ outcome: 'tool_error', args_hash: argsHash(args.bad) });
    expect(byTool('add')[0]).toMatchObject({ outcome: 'ok', args_hash: argsHash({ a: 1, b: 2 }) });
    // structuredContent decides emptiness when present.
    const slow = byTool('slow')[0]!;
    expect(slow).toMatchObject({ outcome: 'ok', is_empty: false });
    expect(slow.duration_ms).toBeGreaterThanOrEqual(50);
  });

  it('shows registered and dead tools from the startup', async () => {
    const { tools } = await t.api('tools', { project: KEY });
    const byName = Object.fromEntries(tools.map((x) => [x.name, x]));
    expect(byName.dead_tool).toMatchObject({ registered: true, dead: true, calls: 0 });
    expect(byName.big).toMatchObject({ registered: true, dead: true });
    expect(byName.echo).toMatchObject({ registered: true, dead: false, calls: 2 });
  });
});
