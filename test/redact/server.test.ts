/**
 * Redaction at the server (a real server on port 0, a real SQLite file, real HTTP): the content
 * route redacts every body, the session's `initialize` facts and refused items before storing,
 * with the user's rules from settings; `import --content`'s in-process path is the same route;
 * the settings route refuses a bad regex with a clear 400; the preview redacts pasted text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directContentSender } from '../../src/cli/commands/import-content.js';
import { connectionOf } from '../../src/store/connection.js';
import { openStore } from '../../src/store/index.js';
import { MESSAGE_BODY_CAP } from '../../src/shared/proxy-content.js';
import { postContent, KEY } from '../content/helpers.js';
import { scratchDir } from '../proxy/helpers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fakeSecrets, ISSUE_40_KINDS, secretValues } from './fake-secrets.js';
import { secretsOnDisk, send } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const s = fakeSecrets();
const everything = `${s.openai} ${s.github} ${s.aws} ${s.jwt} ${s.url} ${s.tokenUrl} Bearer ${s.bearer}`;

/** A content post of one session: a request and an answer carrying every secret. */
function post(sessionId: string, extra: Record<string, unknown> = {}) {
  const request = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'echo', arguments: { message: everything, pin: '4321', order: 'ord-778899' } },
  });
  const answer = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: `Echo: ${everything}` }], isError: false },
  });
  const message = (seq: number, direction: string, kind: string, body: string) => ({
    seq,
    direction,
    at_ms: 1_700_000_000_000 + seq,
    method: 'tools/call',
    rpc_id: '1',
    kind,
    body,
    truncated: false,
    bytes: Buffer.byteLength(body),
  });
  return {
    v: 1,
    session_id: sessionId,
    session: {
      protocol_version: '2025-06-18',
      transport: 'stdio',
      client: {
        name: 'client',
        version: '1',
        capabilities: { experimental: { auth: `Bearer ${s.bearer}` } },
      },
      server: {
        name: 'srv',
        version: '1',
        capabilities: {},
        instructions: `Use ${s.github} to log in`,
      },
    },
    messages: [message(0, 'client', 'request', request), message(1, 'server', 'result', answer)],
    ...extra,
  };
}

describe('the content route', () => {
  it('stores no secret from bodies, session info or refused items, and marks each', async () => {
    const body = post('s_redact_http');
    // One refused message (over the cap), whose snapshot goes to the ingest log.
    const huge = `{"x":"${s.github} ${'a'.repeat(MESSAGE_BODY_CAP)}"}`;
    (body.messages as unknown[]).push({
      ...(body.messages as { seq: number }[])[0],
      seq: 2,
      body: huge,
    });
    const res = await postContent(t.url, body);
    expect(res.status).toBe(202);
    expect(res.headers.get('x-mcpulse-rejected')).toBe('1');

    const { messages } = await t.api('messages', { session: 's_redact_http' });
    expect(messages).toHaveLength(2);
    for (const m of messages) {
      expect(() => JSON.parse(m.body)).not.toThrow();
      for (const kind of [...ISSUE_40_KINDS, 'bearer-token'])
        expect(m.body).toContain(`[redacted: ${kind}]`);
    }
    expect(JSON.parse(messages[0]!.body).params.arguments.pin).toBe('4321');
    connectionOf(t.store).pragma('wal_checkpoint(PASSIVE)');
    expect(secretsOnDisk(t.dbPath, secretValues(s))).toEqual([]);
  });

  it('applies the user rules saved in settings', async () => {
    const saved = await send(t.url, 'PUT', '/api/settings/redaction', {
      keys: ['pin'],
      patterns: ['/ord-(?<secret>\\d+)/'],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.user).toEqual({ keys: ['pin'], patterns: ['/ord-(?<secret>\\d+)/'] });
    expect((await postContent(t.url, post('s_redact_rules'))).status).toBe(202);
    const { messages } = await t.api('messages', { session: 's_redact_rules' });
    const args = JSON.parse(messages[0]!.body).params.arguments;
    expect(args.pin).toBe('[redacted: key-name]');
    expect(args.order).toBe('ord-[redacted: user-pattern]');
    await send(t.url, 'PUT', '/api/settings/redaction', { keys: [], patterns: [] });
  });

  it('redacts what `import --content` writes (the same route, in process)', async () => {
    const dir = scratchDir('mcpulse-redact-import-');
    const dbPath = `${dir}/import.db`;
    const store = openStore(dbPath);
    try {
      const result = await directContentSender(store, KEY)(post('s_redact_import'));
      expect(result).toEqual({ accepted: 2, rejected: 0 });
      connectionOf(store).pragma('wal_checkpoint(PASSIVE)');
      expect(secretsOnDisk(dbPath, secretValues(s))).toEqual([]);
    } finally {
      store.close();
    }
    expect(secretsOnDisk(dbPath, secretValues(s))).toEqual([]);
  });
});

describe('the settings route', () => {
  it.each([
    [{ patterns: ['(unclosed'] }, /not a valid regular expression/],
    [{ patterns: ['a*'] }, /matches the empty string/],
    [{ patterns: ['/x/g'] }, /flag 'g'/],
    [{ keys: [''] }, /non-empty/],
    [{ keys: 'pin' }, /keys: expected an array of strings/],
    [[], /expected a JSON object/],
  ])('refuses %j with a 400 that says why', async (body, why) => {
    const res = await send<{ error: string }>(t.url, 'PUT', '/api/settings/redaction', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(why);
  });

  it('shows the built-in rules read-only beside the user rules', async () => {
    const { body } = await send<{
      builtin: { keys: string[]; preset: { kind: string }[]; supplementary: { kind: string }[] };
    }>(t.url, 'GET', '/api/settings/redaction');
    expect(body.builtin.keys).toContain('authorization');
    expect(body.builtin.preset.map((r) => r.kind)).toContain('github-token');
    expect(body.builtin.supplementary.map((r) => r.kind)).toEqual([
      'openai-key',
      'jwt',
      'bearer-token',
      'url-credentials',
      'token-parameter',
    ]);
  });
});

describe('the preview', () => {
  it('redacts pasted text with markers, JSON or not, and with rules not yet saved', async () => {
    const plain = await send<{ text: string; count: number; json: boolean }>(
      t.url,
      'POST',
      '/api/redaction/preview',
      {
        text: `token ${s.github} at ${s.url}`,
      },
    );
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({
      text: 'token [redacted: github-token] at https://[redacted: url-credentials]@git.example.com/team/repo.git',
      count: 2,
      json: false,
    });
    const json = await send<{ text: string }>(t.url, 'POST', '/api/redaction/preview', {
      text: JSON.stringify({ pin: '1', note: 'x' }),
      keys: ['pin'],
    });
    expect(JSON.parse(json.body.text)).toEqual({ pin: '[redacted: key-name]', note: 'x' });
    const bad = await send<{ error: string }>(t.url, 'POST', '/api/redaction/preview', {
      text: 'x',
      patterns: ['('],
    });
    expect(bad.status).toBe(400);
  });
});
