/**
 * A database from before redaction (content written straight through the store, as an earlier
 * version did) is redacted once when the server starts: message bodies, the sessions'
 * `initialize` facts and refused items — and afterwards neither the file nor its WAL holds a
 * secret, because the rewrite zeroes the old text (secure_delete) and the WAL is truncated.
 */
import { describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { redactionPassDone, type Store } from '../../src/store/index.js';
import { startTestServer } from '../helpers/server.js';
import { fakeSecrets, secretValues } from './fake-secrets.js';
import { secretsOnDisk } from './helpers.js';

describe('content stored before redaction', () => {
  it('is redacted once at start, leaving no secret in the file or its WAL', async () => {
    const s = fakeSecrets();
    const text = `${s.openai} ${s.github} ${s.aws} ${s.jwt} ${s.url} ${s.tokenUrl}`;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      params: { arguments: { text, password: 'hunter2hunter2' } },
    });
    const seed = (store: Store) => {
      store.writeContent({
        keySha256: 'a'.repeat(64),
        keyPrefix: 'mp_live_old',
        receivedMs: Date.now(),
        sessionId: 's_old',
        session: {
          protocol_version: '2025-06-18',
          transport: 'stdio',
          client: { name: 'c', version: '1', capabilities: { x: `Bearer ${s.bearer}` } },
          server: { name: 's', version: '1', capabilities: {}, instructions: `use ${s.github}` },
        },
        messages: Array.from({ length: 450 }, (_, seq) => ({
          seq,
          direction: 'client' as const,
          at_ms: 1,
          method: 'tools/call',
          rpc_id: '1',
          kind: 'request' as const,
          body,
          truncated: false,
          bytes: body.length,
        })),
        unanswered: [],
        rejections: [{ index: 0, reason: 'messages.0.kind: bad', item: body, truncated: false }],
        bodyBytes: 1,
        userAgent: null,
      });
      connectionOf(store).pragma('wal_checkpoint(PASSIVE)');
    };
    const t = await startTestServer({}, seed);
    try {
      expect(await t.server.redactionPass).toEqual({ messages: 450, sessions: 1, rejections: 1 });
      expect(redactionPassDone(t.store)).toBe(true);
      const { messages } = await t.api('messages', { session: 's_old', limit: 5 });
      expect(JSON.parse(messages[0]!.body).params.arguments.password).toBe('[redacted: key-name]');
      connectionOf(t.store).pragma('wal_checkpoint(TRUNCATE)');
      expect(secretsOnDisk(t.dbPath, [...secretValues(s), 'hunter2hunter2'])).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('runs once per file: a fresh file is marked done at once', async () => {
    const t = await startTestServer();
    try {
      expect(await t.server.redactionPass).toEqual({ messages: 0, sessions: 0, rejections: 0 });
      expect(redactionPassDone(t.store)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
