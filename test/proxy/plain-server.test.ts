/**
 * A real SDK client → the real `proxy` command → a plain stdio JSON-RPC server written by hand
 * in Python: the classifications only the wire can give (-32602, other errors), a dead tool,
 * malformed lines from the server, and byte-identical traffic.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argsHash } from '../../src/canonical/node.js';
import type { CallRow, StartupRow } from '../../src/store/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  connectClient,
  proxied,
  PY_SERVER,
  recordDir,
  serverBytes,
  until,
  type Exit,
  type RecordingStdioTransport,
} from './helpers.js';

const KEY = 'mp_live_proxy_py_test';

describe('proxy in front of a plain Python stdio server', () => {
  let t: TestServer;
  let transport: RecordingStdioTransport;
  let exit: Exit;
  let dir: string;
  let calls: CallRow[];
  let startups: StartupRow[];
  const errors: Record<string, unknown> = {};
  const results: Record<string, unknown> = {};
  const clientErrors: Error[] = [];

  beforeAll(async () => {
    t = await startTestServer();
    dir = recordDir();
    const connected = await connectClient(
      proxied(PY_SERVER, t.url, ['--key', KEY]),
      { PLAIN_RECORD_DIR: dir },
      'claude-ai',
    );
    transport = connected.transport;
    const { client } = connected;
    client.onerror = (e) => clientErrors.push(e);
    await client.listTools();
    results.echo = await client.callTool({ name: 'echo', arguments: { text: 'über' } });
    results.lookup = await client.callTool({ name: 'lookup', arguments: { query: 'x' } });
    results.fail = await client.callTool({ name: 'fail', arguments: {} });
    errors.strict = await client.callTool({ name: 'strict', arguments: {} }).catch((e) => e);
    results.strict = await client.callTool({ name: 'strict', arguments: { n: 21 } });
    errors.explode = await client
      .callTool({ name: 'explode', arguments: { why: null } })
      .catch((e) => e);
    results.garble = await client.callTool({ name: 'garble' });
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

  it('answers the client exactly as the server did', () => {
    expect(exit).toEqual({ code: 0, signal: null });
    expect(results.strict).toEqual({ content: [{ type: 'text', text: '42' }] });
    expect(errors.strict).toBeInstanceOf(McpError);
    expect((errors.strict as McpError).code).toBe(-32602);
    expect((errors.explode as McpError).code).toBe(-32603);
    // The server's malformed line reached the client too (its transport reported it).
    expect(clientErrors.length).toBeGreaterThan(0);
    expect(results.garble).toEqual({ content: [{ type: 'text', text: 'after the garble' }] });
  });

  it('relays every byte unchanged, malformed line included', () => {
    const server = serverBytes(dir);
    expect(server.read.equals(transport.sentBytes())).toBe(true);
    expect(transport.receivedBytes().equals(server.wrote)).toBe(true);
    expect(server.wrote.toString()).toContain('{this is not json\n');
  });

  it('classifies from the wire: isError, -32602, other JSON-RPC errors', () => {
    const of = (name: string) => calls.filter((c) => c.tool_name === name);
    expect(of('echo')[0]).toMatchObject({
      outcome: 'ok',
      is_empty: false,
      args_hash: argsHash({ text: 'über' }),
    });
    expect(of('lookup')[0]).toMatchObject({ outcome: 'ok', is_empty: true });
    expect(of('fail')[0]).toMatchObject({ outcome: 'tool_error', is_empty: false });
    expect(of('strict').map((c) => c.outcome)).toEqual(['bad_args', 'ok']);
    expect(of('strict')[0]!.args_hash).toBe(argsHash({}));
    expect(of('strict')[1]!.args_hash).toBe(argsHash({ n: 21 }));
    expect(of('explode')[0]).toMatchObject({
      outcome: 'crashed',
      response_bytes: 0,
      args_hash: argsHash({ why: null }),
    });
    expect(of('garble')[0]).toMatchObject({ outcome: 'ok', args_hash: '44136fa355b3' });
    expect(new Set(calls.map((c) => c.client_name))).toEqual(new Set(['claude-ai']));
  });

  it('registers the listed tools; the one never called is dead', async () => {
    expect(startups).toHaveLength(1);
    expect(startups[0]!.tools.map((x) => x.name)).toContain('never_called');
    expect(startups[0]!.extra).toMatchObject({
      transport: 'stdio',
      protocol_version: expect.any(String),
    });
    const summary = await t.api('summary', { project: KEY });
    expect(summary.registered_tools).toBe(9);
    // die, big and never_called were listed but not called.
    expect(summary.dead_tools).toBe(3);
    expect(summary.outcomes).toEqual({ ok: 3, empty: 1, bad_args: 1, tool_error: 1, crashed: 1 });
  });
});
