/**
 * What the proxy-content views compute from real-shaped messages and call content: the message
 * log's filters and request/answer pairing, a result's text parts, a retry chain's argument
 * diff and preceding answer, and the playground link that carries both argument texts.
 */
import { describe, expect, it } from 'vitest';
import type { MessageView } from '../../src/shared/proxy-content.js';
import {
  answerParts,
  filterMessages,
  methodCounts,
  offsetText,
  pairOf,
  missingSeqs,
  prettyJson,
} from '../../renderer/src/components/content/messages.js';
import { attemptContents, changeText } from '../../renderer/src/pages/sessions/attempt-content.js';
import {
  compareTextsHref,
  compareTextsOf,
} from '../../renderer/src/pages/playground/compare-link.js';
import type { CallView } from '../../renderer/src/api/types.js';

let seq = 0;
function msg(
  direction: MessageView['direction'],
  kind: MessageView['kind'],
  method: string | null,
  rpcId: string | null,
  body: unknown,
  at: number,
): MessageView {
  const text = JSON.stringify(body);
  return {
    seq: seq++,
    direction,
    kind,
    method,
    rpc_id: rpcId,
    at_ms: at,
    body: text,
    truncated: false,
    bytes: Buffer.byteLength(text),
  };
}

const log: MessageView[] = [
  msg(
    'client',
    'request',
    'initialize',
    '1',
    { jsonrpc: '2.0', id: 1, method: 'initialize' },
    1000,
  ),
  msg('server', 'result', 'initialize', '1', { jsonrpc: '2.0', id: 1, result: {} }, 1004),
  msg(
    'client',
    'notification',
    'notifications/initialized',
    null,
    { method: 'notifications/initialized' },
    1005,
  ),
  msg(
    'client',
    'request',
    'resources/read',
    '2',
    { id: 2, params: { uri: 'file:///a.txt' } },
    1010,
  ),
  msg(
    'server',
    'request',
    'sampling/createMessage',
    '1',
    { id: 1, method: 'sampling/createMessage' },
    1012,
  ),
  msg('client', 'result', 'sampling/createMessage', '1', { id: 1, result: { content: 'x' } }, 1040),
  msg(
    'server',
    'error',
    'resources/read',
    '2',
    { id: 2, error: { code: -32002, message: 'Resource not found' } },
    1050,
  ),
];

describe('message log', () => {
  it('filters by method, kind and text inside bodies', () => {
    expect(
      filterMessages(log, { method: 'resources/read', kind: '', q: '' }).map((m) => m.kind),
    ).toEqual(['request', 'error']);
    expect(filterMessages(log, { method: '', kind: 'error', q: '' })).toHaveLength(1);
    expect(
      filterMessages(log, { method: '', kind: '', q: 'RESOURCE NOT' }).map((m) => m.seq),
    ).toEqual([log[6]!.seq]);
    expect(filterMessages(log, { method: '', kind: '', q: '' })).toBe(log);
  });

  it('pairs a request with its answer in the other direction, even when ids repeat across senders', () => {
    const read = pairOf(log, log[3]!);
    expect(read.answer).toBe(log[6]);
    expect(read.ms).toBe(40);
    // The server's request id 1 is not the client's initialize id 1.
    const sampling = pairOf(log, log[5]!);
    expect(sampling.request).toBe(log[4]);
    expect(sampling.ms).toBe(28);
    expect(pairOf(log, log[1]!).request).toBe(log[0]);
    expect(pairOf(log, log[2]!)).toEqual({ request: log[2], answer: undefined, ms: null });
  });

  it('counts methods, formats offsets and leaves a truncated body as sent', () => {
    expect(methodCounts(log)[0]).toEqual({ method: 'initialize', count: 2 });
    expect(offsetText(12)).toBe('+12 ms');
    expect(offsetText(1234)).toBe('+1.234 s');
    expect(offsetText(125_000)).toBe('+2:05.000');
    expect(offsetText(3_725_300)).toBe('+62:05.300');
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('{"a":"cut her')).toBe('{"a":"cut her');
  });

  it('reads a result’s text parts, other parts and structured content', () => {
    const parts = answerParts(
      JSON.stringify({
        content: [
          { type: 'text', text: 'hello' },
          { type: 'image', data: 'x' },
        ],
        structuredContent: { n: 1 },
        isError: true,
      }),
    );
    expect(parts).toEqual({
      texts: ['hello'],
      others: ['image'],
      structured: '{\n  "n": 1\n}',
      isError: true,
    });
    expect(answerParts('not json')).toBeNull();
    expect(
      answerParts(JSON.stringify({ jsonrpc: '2.0', id: 3, result: { content: [] } }))?.texts,
    ).toEqual([]);
  });
});

function callView(id: number, isEmpty = false): CallView {
  // Only the fields the chain story reads; the rest of a CallView does not take part.
  return {
    id,
    tool_name: 'read_file',
    args_hash: `${id}`.padStart(12, '0'),
    is_empty: isEmpty,
  } as CallView;
}

describe('retry chain story', () => {
  it('says what each attempt got back and what changed before the next, by path', () => {
    const steps = attemptContents(
      [callView(1), callView(2, true), callView(3)],
      [
        {
          arguments: '{"path":"a.txt","limit":10}',
          result: null,
          error: 'ENOENT: no such file a.txt',
          request_seq: 3,
          answer_seq: 4,
          truncated: false,
        },
        {
          arguments: '{"limit":10.0,"path":"/abs/a.txt"}',
          result: '{"content":[]}',
          error: null,
          request_seq: 5,
          answer_seq: 6,
          truncated: false,
        },
        {
          arguments: '{"path":"/abs/a.txt","limit":10,"encoding":"utf8"}',
          result: '{"content":[{"type":"text","text":"hi"}]}',
          error: null,
          request_seq: 7,
          answer_seq: 8,
          truncated: false,
        },
      ],
    );
    expect(steps.map((s) => s.answer)).toEqual([
      { kind: 'error', text: 'ENOENT: no such file a.txt' },
      { kind: 'empty' },
      { kind: 'text', text: 'hi' },
    ]);
    expect(steps[0]!.changes).toBeNull();
    // Key order and 10 vs 10.0 are not changes.
    expect(steps[1]!.changes!.map(changeText)).toEqual(['path: "a.txt" → "/abs/a.txt"']);
    expect(steps[2]!.changes!.map(changeText)).toEqual(['encoding: added "utf8"']);
  });

  it('knows nothing of an attempt whose content was not captured', () => {
    const steps = attemptContents([callView(1), callView(2)], [null, null]);
    expect(steps.map((s) => s.answer.kind)).toEqual(['none', 'none']);
    expect(steps[1]!.changes).toBeNull();
  });
});

describe('playground link', () => {
  it('carries the hashes in the query and both texts in the fragment, round trip', () => {
    const a = '{"path":"a.txt","q":"x&y #1"}';
    const b = '{"path":"/abs/a.txt"}';
    const href = compareTextsHref(
      'read_file',
      { hash: 'aaaaaaaaaaaa', text: a },
      { hash: 'bbbbbbbbbbbb', text: b },
    );
    const url = new URL(href, 'http://127.0.0.1');
    expect(url.pathname).toBe('/playground');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      mode: 'compare',
      tool: 'read_file',
      a: 'aaaaaaaaaaaa',
      b: 'bbbbbbbbbbbb',
    });
    expect(compareTextsOf(url.hash)).toEqual({ a, b });
    expect(compareTextsHref('t', { hash: 'x' }, { hash: 'y' })).not.toContain('#');
  });

  it('names the seqs missing from a session (a refused message, a relay gap)', () => {
    const at = (seq: number) => ({ seq }) as Parameters<typeof missingSeqs>[0][number];
    expect(missingSeqs([0, 1, 2].map(at))).toEqual({ seqs: [], count: 0 });
    expect(missingSeqs([0, 2, 3, 9].map(at), 3)).toEqual({ seqs: [1, 4, 5], count: 6 });
  });
});
