/**
 * The proxy redacts before it posts (secrets do not travel, nor reach a hand-off spool): what
 * the observer hands its content target — message bodies and the session's `initialize` facts
 * — is redacted with the built-in rules and the `--redact` ones, cut without leaving half a
 * marker, while the call payload's `args_hash` is the original arguments' hash.
 */
import { describe, expect, it } from 'vitest';
import type { CallPayload } from '../../src/producer/types.js';
import { hashArguments } from '../../src/producer/measure.js';
import { TrafficObserver, type ProxyPayload } from '../../src/proxy/index.js';
import { Redactor } from '../../src/redact/index.js';
import type { ProxyMessage, ProxySessionInfo } from '../../src/shared/proxy-content.js';
import { fakeSecrets, secretValues } from './fake-secrets.js';

describe('the proxy side', () => {
  it('hands on only redacted content, and hashes the original arguments', async () => {
    const s = fakeSecrets();
    const messages: ProxyMessage[] = [];
    const sessions: ProxySessionInfo[] = [];
    const payloads: ProxyPayload[] = [];
    const observer = new TrafficObserver({
      sessionId: 's_0123456789ab',
      transport: 'stdio',
      emit: (p) => payloads.push(p),
      bodies: true,
      redactor: new Redactor({ keys: ['pin'], patterns: ['/ord-\\d+/'] }),
      content: {
        message: (_, m) => messages.push(m),
        session: (_, info) => sessions.push(info),
        unanswered: () => {},
      },
    });
    const send = (from: 'client' | 'server', m: unknown) =>
      from === 'client'
        ? observer.fromClient(JSON.stringify(m))
        : observer.fromServer(JSON.stringify(m));
    send('client', {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        clientInfo: { name: 'c', version: '1' },
        capabilities: {},
      },
    });
    send('server', {
      jsonrpc: '2.0',
      id: 0,
      result: {
        protocolVersion: '2025-06-18',
        serverInfo: { name: 'srv', version: '1' },
        capabilities: { tools: {} },
        instructions: `log in with ${s.github}`,
      },
    });
    const args = { note: `${s.openai} ${s.url} ord-1234`, pin: '9999', progressToken: 'p1' };
    send('client', {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: args },
    });
    send('server', {
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: `${s.jwt} ${s.tokenUrl}` }] },
    });
    await observer.settled();

    const all = JSON.stringify([messages, sessions]);
    for (const secret of secretValues(s)) expect(all).not.toContain(secret);
    expect(sessions[0]!.server.instructions).toBe('log in with [redacted: github-token]');
    const request = JSON.parse(
      messages.find((m) => m.kind === 'request' && m.method === 'tools/call')!.body,
    );
    expect(request.params.arguments).toEqual({
      note: '[redacted: openai-key] https://[redacted: url-credentials]@git.example.com/team/repo.git [redacted: user-pattern]',
      pin: '[redacted: key-name]',
      progressToken: 'p1',
    });
    expect(messages.map((m) => m.seq)).toEqual([0, 1, 2, 3]);
    const call = payloads.find((p): p is CallPayload => p.type === 'call')!;
    expect(call.args_hash).toBe(hashArguments(args));
  });
});
