/**
 * The observer on its own: interleaved calls, cancellations, progress, batches, reused ids,
 * the server's own requests, paginated tool lists — fed the exact lines a relay would see.
 */
import { describe, expect, it } from 'vitest';
import { argsHash } from '../../src/canonical/node.js';
import type { CallPayload } from '../../src/producer/types.js';
import {
  LineSplitter,
  SseReader,
  TrafficObserver,
  type ProxyPayload,
} from '../../src/proxy/index.js';
import type { ProxyStartupPayload } from '../../src/proxy/telemetry.js';

function observe(transport: 'stdio' | 'http' = 'stdio') {
  const payloads: ProxyPayload[] = [];
  const observer = new TrafficObserver({
    sessionId: 's_0123456789ab',
    transport,
    emit: (p) => payloads.push(p),
  });
  const client = (m: unknown, scope = '') => observer.fromClient(JSON.stringify(m), scope);
  const server = (m: unknown, scope = '') => observer.fromServer(JSON.stringify(m), scope);
  const calls = () => payloads.filter((p): p is CallPayload => p.type === 'call');
  const startups = () => payloads.filter((p): p is ProxyStartupPayload => p.type === 'startup');
  return { observer, client, server, calls, startups };
}

const call = (id: number | string, name: string, args?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, ...(args === undefined ? {} : { arguments: args }) },
});
const result = (id: number | string, r: unknown) => ({ jsonrpc: '2.0', id, result: r });
const text = (t: string, isError = false) => ({
  content: [{ type: 'text', text: t }],
  ...(isError ? { isError } : {}),
});

describe('matching answers to calls', () => {
  it('matches interleaved calls answered out of order, each to its own id', () => {
    const o = observe();
    o.client(call(1, 'a', { x: 1 }));
    o.client(call(2, 'b', { x: 2 }));
    o.client(call('3', 'c'));
    o.server({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    o.server(result('3', text('')));
    o.server(result(2, text('two')));
    o.server(result(1, text('one', true)));
    expect(o.calls().map((c) => [c.tool_name, c.outcome, c.is_empty, c.args_hash])).toEqual([
      ['c', 'ok', true, argsHash(undefined)],
      ['b', 'ok', false, argsHash({ x: 2 })],
      ['a', 'tool_error', false, argsHash({ x: 1 })],
    ]);
  });

  it('keeps 1 and "1" apart, and frees an id once answered so it can be reused', () => {
    const o = observe();
    o.client(call(1, 'num'));
    o.client(call('1', 'str'));
    o.server(result('1', text('s')));
    o.server(result(1, text('n')));
    o.client(call(1, 'again'));
    o.server(result(1, text('again')));
    o.server(result(1, text('stray duplicate answer')));
    expect(o.calls().map((c) => c.tool_name)).toEqual(['str', 'num', 'again']);
  });

  it('never takes the client’s answer to a server request for a tool result', () => {
    const o = observe();
    o.client(call(7, 'tool'));
    // The server asks the client something, with the same id 7, and the client answers it.
    o.server({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: {} });
    o.client(result(7, { role: 'assistant', content: { type: 'text', text: 'x' } }));
    expect(o.calls()).toHaveLength(0);
    o.server(result(7, text('real')));
    expect(o.calls().map((c) => c.outcome)).toEqual(['ok']);
  });

  it('classifies errors: -32602 → bad_args, any other → crashed, server gone → crashed', () => {
    const o = observe();
    o.client(call(1, 'v'));
    o.client(call(2, 'w'));
    o.client(call(3, 'x'));
    o.server({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } });
    o.server({ jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'boom' } });
    o.observer.abandonAll();
    expect(o.calls().map((c) => [c.tool_name, c.outcome, c.response_bytes])).toEqual([
      ['v', 'bad_args', 0],
      ['w', 'crashed', 0],
      ['x', 'crashed', 0],
    ]);
  });

  it('records a cancelled call that still gets an answer; drops one that never does', () => {
    const o = observe();
    o.client(call(1, 'answered-anyway'));
    o.client(call(2, 'never-answered'));
    for (const id of [1, 2])
      o.client({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
    o.server(result(1, text('late')));
    o.observer.abandonAll();
    expect(o.calls().map((c) => c.tool_name)).toEqual(['answered-anyway']);
    expect(o.observer.stats().cancelled).toBe(1);
  });

  it('reads batches both ways', () => {
    const o = observe();
    o.client([call(1, 'a'), { jsonrpc: '2.0', method: 'notifications/initialized' }, call(2, 'b')]);
    o.server([
      result(2, text('b')),
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'x' } },
    ]);
    expect(o.calls().map((c) => [c.tool_name, c.outcome])).toEqual([
      ['b', 'ok'],
      ['a', 'bad_args'],
    ]);
  });

  it('ignores what is not JSON-RPC and counts it', () => {
    const o = observe();
    o.observer.fromClient('{oops');
    o.observer.fromServer('"just a string"');
    o.observer.fromServer('   ');
    expect(o.calls()).toHaveLength(0);
    expect(o.observer.stats().unreadable).toBe(2);
  });

  it('measures duration from the request to the answer', async () => {
    const o = observe();
    o.client(call(1, 'slow'));
    await new Promise((r) => setTimeout(r, 30));
    o.server(result(1, text('ok')));
    expect(o.calls()[0]!.duration_ms).toBeGreaterThanOrEqual(25);
  });
});

describe('startups', () => {
  const init = (name: string) => ({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', clientInfo: { name, version: '1' }, capabilities: {} },
  });
  const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

  it('sends one from initialize + a paginated tools/list, marked as proxied', () => {
    const o = observe();
    o.client(init('cursor-vscode'));
    o.server(
      result(0, {
        protocolVersion: '2025-03-26',
        capabilities: {},
        serverInfo: { name: 's', version: '1' },
      }),
    );
    o.client({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    o.server(result(1, { tools: [tool('a'), tool('b')], nextCursor: 'p2' }));
    expect(o.startups()).toHaveLength(0);
    o.client({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'p2' } });
    o.server(result(2, { tools: [tool('c')] }));
    expect(o.startups()).toEqual([
      {
        v: 1,
        type: 'startup',
        session_id: 's_0123456789ab',
        client_name: 'cursor-vscode',
        sdk: expect.stringMatching(/^mcpulse-devtools-proxy@/),
        transport: 'stdio',
        protocol_version: '2025-03-26',
        tools: ['a', 'b', 'c'].map((n) => ({
          name: n,
          schema_bytes: JSON.stringify(tool(n)).length,
        })),
      },
    ]);
  });

  it('sends a new one when the list changes, or is re-listed after list_changed; not for an identical re-list', () => {
    const o = observe();
    const list = (id: number, tools: unknown[]) => {
      o.client({ jsonrpc: '2.0', id, method: 'tools/list' });
      o.server(result(id, { tools }));
    };
    list(1, [tool('a')]);
    list(2, [tool('a')]);
    expect(o.startups()).toHaveLength(1);
    list(3, [tool('a'), tool('b')]);
    expect(o.startups()).toHaveLength(2);
    o.server({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    list(4, [tool('a'), tool('b')]);
    expect(o.startups()).toHaveLength(3);
    expect(o.startups()[0]!.client_name).toBe('unknown');
  });

  it('keeps HTTP sessions apart, linked to the id the server assigns', () => {
    const o = observe('http');
    o.client(init('one'), 'exchange:1');
    o.observer.link('exchange:1', 'sid-1');
    o.client(init('two'), 'exchange:2');
    o.observer.link('exchange:2', 'sid-2');
    o.client(call(5, 'from-one'), 'sid-1');
    const keys = o.observer.fromClient(JSON.stringify(call(5, 'from-two')), 'sid-2');
    o.server(result(5, text('1')), 'sid-1');
    o.observer.abandon('sid-2', keys);
    expect(o.calls().map((c) => [c.tool_name, c.client_name, c.outcome])).toEqual([
      ['from-one', 'one', 'ok'],
      ['from-two', 'two', 'crashed'],
    ]);
  });
});

describe('reading the streams', () => {
  it('splits lines across chunks, keeping bytes exact', () => {
    const lines: string[] = [];
    const split = new LineSplitter((l) => lines.push(l.toString()));
    for (const chunk of ['{"a":', '1}\n{"b"', ':2}\n\n{"c":3', '}\n', 'tail'])
      split.push(Buffer.from(chunk));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '', '{"c":3}']);
    expect(split.pendingBytes).toBe(4);
  });

  it('reads SSE events split anywhere, with CRLF, comments and multi-line data', () => {
    const events: string[] = [];
    const sse = new SseReader((d) => events.push(d));
    const stream = ': hi\r\nid: 1\r\nevent: message\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata:x\n\n';
    for (let i = 0; i < stream.length; i += 3) sse.push(Buffer.from(stream.slice(i, i + 3)));
    expect(events).toEqual(['{"a":\n1}', 'x']);
  });
});

describe('--client', () => {
  it('names every payload after the given client, whatever initialize says', () => {
    const payloads: ProxyPayload[] = [];
    const observer = new TrafficObserver({
      sessionId: 's_0123456789ab',
      transport: 'stdio',
      clientName: 'my-agent',
      emit: (p) => payloads.push(p),
    });
    observer.fromClient(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { clientInfo: { name: 'other' } },
      }),
    );
    observer.fromClient(JSON.stringify(call(1, 'a')));
    observer.fromServer(JSON.stringify(result(1, text('x'))));
    expect(payloads.map((p) => p.client_name)).toEqual(['my-agent']);
  });
});
