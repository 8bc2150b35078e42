/**
 * Content goes with its calls: a retention pass by age or by the size cap, and clear-all,
 * remove it; `export --content` / `import --content` carry it (and only when asked), through
 * the real CLI, a real SQLite file and the content route's own validation.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf } from '../../src/api/remote.js';
import { createContentIngest, createIngest, LiveBus } from '../../src/ingest/index.js';
import { connectionOf } from '../../src/store/connection.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createRetention, writeRetentionSettings } from '../../src/store/retention/index.js';
import { runCli } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';
import { ingestAt } from '../reliability/helpers/data.js';
import { KEY, postContent, proxiedSession } from './helpers.js';
import { authedFetch } from '../helpers/token.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 2, 12);

/** Rows of each content table, by session. */
function contentRows(store: Store): Record<string, Record<string, number>> {
  const db = connectionOf(store);
  const out: Record<string, Record<string, number>> = {};
  for (const table of ['proxy_messages', 'proxy_sessions', 'proxy_unanswered']) {
    for (const r of db
      .prepare(`SELECT session_id AS s, count(*) AS n FROM ${table} GROUP BY 1`)
      .all() as { s: string; n: number }[])
      (out[r.s] ??= {})[table] = r.n;
  }
  return out;
}

function withStore(run: (store: Store) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-content-ret-'));
    const store = openStore(join(dir, 'devtools.db'));
    try {
      await run(store);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** Lays down a proxied session (calls, then content) received at `receivedMs`. */
async function proxiedAt(store: Store, id: string, calls: number, receivedMs: number) {
  const s = proxiedSession(
    id,
    Array.from({ length: calls }, (_, i) => ({ tool: 'search', args: { i }, t: i * 60_000 })),
  );
  ingestAt(createIngest({ store, bus: new LiveBus() }), s.ingest.batch, receivedMs, KEY);
  const content = {
    ...s.content,
    unanswered: [{ rpc_id: '99', method: 'tools/call', tool_name: 'slow', sent_at_ms: 1 }],
  };
  const answer = await createContentIngest(store)({
    authorization: `Bearer ${KEY}`,
    contentType: 'application/json',
    userAgent: 'test',
    body: Buffer.from(JSON.stringify(content)),
    receivedMs,
  });
  expect(answer.status).toBe(202);
}

describe('retention and clear-all', () => {
  it(
    'a pass by age removes the old sessions’ content with their calls and keeps the rest',
    withStore(async (store) => {
      await proxiedAt(store, 's_old', 3, NOW - 40 * DAY);
      await proxiedAt(store, 's_new', 3, NOW - DAY);
      const report = await createRetention(store, { now: () => NOW, chunkRows: 4 }).runPass();
      expect(report.error).toBeUndefined();
      expect(report.deleted.calls).toBe(3);
      // 7 messages, 1 unanswered request and the initialize facts: 9 rows, in chunks of 4.
      expect(report.deleted.content).toBe(9);
      expect(contentRows(store)).toEqual({
        s_new: { proxy_messages: 7, proxy_sessions: 1, proxy_unanswered: 1 },
      });
      expect(connectionOf(store).pragma('foreign_key_check')).toEqual([]);
    }),
  );

  it(
    'the size cap removes the content of sessions it left without calls, and only those',
    withStore(async (store) => {
      // The smallest cap there is (1,000) and three sessions of 500 calls: the oldest must go.
      await proxiedAt(store, 's_a', 500, NOW - 3 * DAY);
      await proxiedAt(store, 's_b', 500, NOW - 2 * DAY);
      await proxiedAt(store, 's_c', 500, NOW - DAY);
      writeRetentionSettings(connectionOf(store), { max_calls: 1000 });
      const report = await createRetention(store, { now: () => NOW }).runPass();
      expect(report.error).toBeUndefined();
      expect(report.deleted.calls).toBe(500);
      expect(Object.keys(contentRows(store)).sort()).toEqual(['s_b', 's_c']);
      // 1 + 2 × 500 messages, the initialize facts and one unanswered request.
      expect(report.deleted.content).toBe(1003);
    }),
  );

  it('clear-all empties every content table', async () => {
    const t = await startTestServer();
    try {
      const s = proxiedSession('s_clear', [{ tool: 'search', args: {}, t: 0 }]);
      await t.ingest(s.ingest);
      await postContent(t.url, {
        ...s.content,
        unanswered: [{ rpc_id: '5', method: 'ping', tool_name: null, sent_at_ms: 1 }],
      });
      const res = await authedFetch(`${t.url}/api/admin/clear`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"confirm":"delete all data"}',
      });
      expect(res.status).toBe(200);
      const { deleted } = answerOf('clear', await res.json());
      expect(deleted).toMatchObject({ proxy_messages: 3, proxy_sessions: 1, proxy_unanswered: 1 });
      expect((await t.api('messages', { session: 's_clear' })).messages).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('export --content → import --content', () => {
  let dir: string;
  let source: string;
  const big = 'x'.repeat(200_000);
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpulse-content-export-'));
    source = join(dir, 'source.db');
    const store = openStore(source);
    try {
      await proxiedAt(store, 's_one', 2, NOW);
      // A session with content only (no tool call), and big bodies that need more than one line.
      const messages = Array.from({ length: 30 }, (_, seq) => ({
        seq,
        direction: 'client',
        at_ms: NOW + seq,
        method: 'resources/read',
        rpc_id: String(seq),
        kind: 'request',
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: seq,
          method: 'resources/read',
          params: { uri: big },
        }),
        truncated: false,
        bytes: 200_080,
      }));
      expect(
        (
          await createContentIngest(store)({
            authorization: `Bearer ${KEY}`,
            contentType: 'application/json',
            userAgent: 'test',
            body: Buffer.from(JSON.stringify({ v: 1, session_id: 's_resources', messages })),
            receivedMs: NOW,
          })
        ).status,
      ).toBe(202);
    } finally {
      store.close();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a default export carries no content; --content adds it after the payloads', async () => {
    const plain = await runCli(['export', '--db', source]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('proxy_content');
    const out = join(dir, 'with-content.jsonl');
    const withContent = await runCli(['export', '--db', source, '--content', '--out', out]);
    expect(withContent.code, withContent.stderr).toBe(0);
    expect(withContent.stderr).toMatch(/and 35 messages of 2 proxied sessions/);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    const firstContent = lines.findIndex((l) => l.type === 'proxy_content');
    expect(lines.slice(0, firstContent).every((l) => l.type === 'call')).toBe(true);
    // 30 bodies of 200 KB do not fit one 4 MB line: the session is split over two.
    expect(lines.slice(firstContent).every((l) => l.type === 'proxy_content')).toBe(true);
    expect(lines.length - firstContent).toBe(3);
    const csv = await runCli(['export', '--db', source, '--content', '--format', 'csv']);
    expect(csv.code).toBe(2);
    expect(csv.stderr).toMatch(/--content: only a jsonl export/);
  });

  it('import --content stores the same messages; without it they are skipped and said so', async () => {
    const file = join(dir, 'with-content.jsonl');
    const target = join(dir, 'target.db');
    const skipped = await runCli(['import', file, '--db', join(dir, 'skipped.db'), '--key', KEY]);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stderr).toMatch(/skipped 3 lines of proxy content: pass --content/);
    const imported = await runCli(['import', file, '--db', target, '--key', KEY, '--content']);
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(/imported 35 messages of proxy content \(3 lines\)/);
    const a = openStore(source, { readonly: true });
    const b = openStore(target, { readonly: true });
    try {
      const dump = (s: typeof a) =>
        connectionOf(s)
          .prepare(
            `SELECT session_id, seq, direction, at_ms, method, rpc_id, kind, body, truncated, bytes, call_started_at
               FROM proxy_messages ORDER BY session_id, seq`,
          )
          .all();
      expect(dump(b)).toEqual(dump(a));
      const facts = (s: typeof a) =>
        connectionOf(s).prepare('SELECT * FROM proxy_unanswered').all().length +
        connectionOf(s).prepare('SELECT * FROM proxy_sessions').all().length;
      expect(facts(b)).toBe(facts(a));
      // The call still finds its content in the new file.
      const [call] = b.read.calls({ session: 's_one' });
      const messages = b.read.content.callMessages(call!.project_id, 's_one', call!.started_at);
      expect(messages.map((m) => m.seq)).toEqual([1, 2]);
    } finally {
      a.close();
      b.close();
    }
  });

  it('/api/export?content=true carries it too, and never by default', async () => {
    const t = await startTestServer();
    try {
      const s = proxiedSession('s_api', [{ tool: 'search', args: { q: 'x' }, t: 0 }]);
      await t.ingest(s.ingest);
      await postContent(t.url, s.content);
      const plain = await (await authedFetch(`${t.url}/api/export?format=jsonl`)).text();
      expect(plain).not.toContain('proxy_content');
      const full = await (
        await authedFetch(`${t.url}/api/export?format=jsonl&content=true`)
      ).text();
      const line = full.trim().split('\n').at(-1)!;
      expect(JSON.parse(line)).toMatchObject({ type: 'proxy_content', session_id: 's_api', v: 1 });
      const bad = await authedFetch(`${t.url}/api/export?format=md&content=true`);
      expect(bad.status).toBe(400);
    } finally {
      await t.close();
    }
  });
});
