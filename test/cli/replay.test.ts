/**
 * `replay` against a real stdio server whose second build breaks one tool: a session recorded
 * against build 1 (real SDK client, real server, real dashboard on port 0 with a real SQLite
 * file) is re-sent through the real CLI process, from the file and from the running dashboard.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { postContent } from '../content/helpers.js';
import { recordSession } from './replay-record.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'replay-server.ts');
const SERVER = ['--', process.execPath, '--import', 'tsx', FIXTURE];
const SESSION = 's_replay_000001';
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  const recording = await recordSession({
    sessionId: SESSION,
    command: process.execPath,
    args: ['--import', 'tsx', FIXTURE],
    clientInfo: { name: 'claude-code', version: '2.0.14' },
    capabilities: { roots: { listChanged: true } },
    protocolVersion: '2025-03-26',
    calls: [
      { name: 'whoami', arguments: {} },
      { name: 'echo', arguments: { text: 'hello' } },
      { name: 'search_issues', arguments: { since: '02/12/2026' } },
      { name: 'add', arguments: { a: 2, b: 3 } },
    ],
  });
  expect(recording.ingest.batch.map((c) => c.outcome)).toEqual(['ok', 'ok', 'tool_error', 'ok']);
  expect((await t.ingest(recording.ingest)).status).toBe(202);
  expect((await postContent(t.url, recording.content)).status).toBe(202);
  // An SDK's session: the same calls, no content.
  const sdk = recording.ingest.batch.map((c) => ({ ...c, session_id: 's_sdk_000001' }));
  expect((await t.ingest({ batch: sdk })).status).toBe(202);
  // A session proxied with --no-content: the proxy's startup names it, and no content follows.
  const noContent = recording.ingest.batch.map((c) => ({ ...c, session_id: 's_nocont_0001' }));
  const startup = {
    v: 1,
    type: 'startup',
    session_id: 's_nocont_0001',
    client_name: 'claude-code',
    sdk: 'mcpulse-devtools-proxy@0.1.0',
    tools: [{ name: 'echo', schema_bytes: 120 }],
  };
  expect((await t.ingest({ batch: [startup, ...noContent] })).status).toBe(202);
}, 60_000);
afterAll(() => t?.close());

describe('replay', () => {
  it(
    'against the build that broke a tool: exit 1, and the table names the call',
    { timeout: 60_000 },
    async () => {
      const run = await runCli(['replay', SESSION, '--url', t.url, ...SERVER], {
        env: { REPLAY_FIXTURE_BUILD: '2' },
      });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const rows = run.stdout.split('\n');
      const row = (tool: string) => rows.find((l) => l.includes(` ${tool} `)) ?? '';
      expect(rows[0]).toMatch(/^#\s+call\s+tool\s+change\s+outcome\s+duration\s+answer$/);
      expect(row('add')).toMatch(
        /^4\s+\d+\s+add\s+WORSE\s+ok → tool_error\s+\d+ → \d+ ms\s+"5" → "add is broken in build 2"$/,
      );
      expect(row('search_issues')).toMatch(
        /better\s+tool_error → ok .*"Invalid date format: use YYYY-MM-DD" → "3 issues since 02\/12\/2026"/,
      );
      expect(row('echo')).toMatch(/changed\s+ok → ok .*"hello" → "HELLO"/);
      // Initialized exactly as the recorded client did: whoami answers the same.
      expect(row('whoami')).toMatch(/same\s+ok → ok .*\ssame$/);
      expect(run.stdout).toContain('4 calls: 1 worse, 1 better, 1 changed, 1 same, 0 not re-sent');
    },
  );

  it(
    'against the same build, from the database file: exit 0, every answer the same',
    { timeout: 60_000 },
    async () => {
      const run = await runCli(['replay', SESSION, '--db', t.dbPath, '--json', ...SERVER], {
        env: { REPLAY_FIXTURE_BUILD: '1' },
      });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const { rows } = JSON.parse(run.stdout) as {
        rows: { tool: string; change: string; text_after: string }[];
      };
      expect(rows.map((r) => [r.tool, r.change])).toEqual([
        ['whoami', 'same'],
        ['echo', 'same'],
        ['search_issues', 'same'],
        ['add', 'same'],
      ]);
      expect(JSON.parse(rows[0]!.text_after)).toEqual({
        client: { name: 'claude-code', version: '2.0.14' },
        capabilities: { roots: { listChanged: true } },
        protocol_version: '2025-03-26',
      });
    },
  );

  it(
    'says clearly why a session cannot be replayed, and exits 2',
    { timeout: 60_000 },
    async () => {
      const sdk = await runCli(['replay', 's_sdk_000001', '--url', t.url, ...SERVER]);
      expect(sdk.code).toBe(2);
      expect(sdk.stderr).toMatch(
        /has no captured content: an SDK sends only a hash of the arguments/,
      );
      // Issue 41: a proxied session recorded with --no-content is not called an SDK's.
      const noContent = await runCli(['replay', 's_nocont_0001', '--url', t.url, ...SERVER]);
      expect(noContent.code).toBe(2);
      expect(noContent.stderr).toMatch(
        /has no captured content: it was proxied with --no-content, which keeps only a hash/,
      );
      expect(noContent.stderr).not.toMatch(/an SDK sends/);
      const none = await runCli(['replay', 's_nobody', '--url', t.url, ...SERVER]);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/no calls recorded for session 's_nobody'/);
      const noCommand = await runCli(['replay', SESSION, '--url', t.url]);
      expect(noCommand.code).toBe(2);
      expect(noCommand.stderr).toMatch(/give the server to replay against after --/);
      const badServer = await runCli([
        'replay',
        SESSION,
        '--url',
        t.url,
        '--timeout',
        '5000',
        '--',
        process.execPath,
        '-e',
        'process.exit(3)',
      ]);
      expect(badServer.code).toBe(2);
      expect(badServer.stderr).toMatch(/the server did not initialize/);
    },
  );
});
