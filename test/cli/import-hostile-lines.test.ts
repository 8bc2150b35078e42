/**
 * `import` refuses a line it cannot handle and goes on with the rest (issue 19): a payload
 * nested 100,000 deep used to fail the whole import with "Maximum call stack size exceeded"
 * (0 rows stored, the good lines included), and a line of any size was buffered whole. The
 * real CLI over a real file and database: the good lines are stored, the summary names each
 * line import itself skipped, with its number and reason.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startTestServer, storedBySession, untilSpoolApplied } from '../helpers/server.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpulse-import-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const call = (session: string): string =>
  JSON.stringify({
    v: 1,
    type: 'call',
    session_id: session,
    client_name: 'import-test',
    tool_name: 'search',
    started_at: '2026-12-02T10:00:00Z',
    duration_ms: 3,
    outcome: 'ok',
    response_bytes: 10,
    is_empty: false,
    args_hash: 'abcd1234',
  });

const DEPTH = 100_000;
const deep = '['.repeat(DEPTH) + ']'.repeat(DEPTH);

it(
  'stores every good line around a 100,000-deep line, a deep batch item and a 9 MiB line',
  {
    timeout: 60_000,
  },
  async () => {
    const lines = [
      call('s_1'),
      // A call with an unknown field nested 100,000 deep: sent as read, ingest keeps the call.
      `${call('s_deep_field').slice(0, -1)},"trace":${deep}}`,
      deep,
      call('s_2'),
      `{"batch":[${call('s_3')},${deep}]}`,
      'x'.repeat(9 * 1024 * 1024),
      call('s_4'),
    ];
    const file = join(dir, 'hostile.jsonl');
    writeFileSync(file, lines.join('\n'));
    const db = join(dir, 'hostile.db');
    const run = await runCli(['import', file, '--db', db]);
    expect(run.stderr).not.toMatch(/call stack|RangeError|\n\s+at /);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      'line 3: Expected object, received array',
      'line 5: batch item 1 is nested too deeply to re-encode',
      'line 6: line of 9.0 MiB is over the 8.0 MiB one ingest request may hold',
    ]);
    expect(run.stderr).toBe(
      `imported 5 payloads into ${db}; 3 rejected (listed above)` +
        '; skipped line 5 (batch item 1 is nested too deeply to re-encode)' +
        '; skipped line 6 (line of 9.0 MiB is over the 8.0 MiB one ingest request may hold)\n',
    );
    expect(run.code).toBe(1);
    expect(storedBySession(db)).toEqual({ s_1: 1, s_deep_field: 1, s_2: 1, s_3: 1, s_4: 1 });
  },
);

it(
  'splits big payloads into requests that each fit one ingest request (--url)',
  {
    timeout: 60_000,
  },
  async () => {
    // 500 calls of ~40 KB each (an unknown field): 20 MB in all, one chunk by count — over the
    // 8 MiB a request may hold, which the dashboard refuses with 413.
    const pad = 'p'.repeat(40_000);
    const lines = Array.from(
      { length: 500 },
      (_, i) => `${call(`s_big_${i % 10}`).slice(0, -1)},"note":"${pad}"}`,
    );
    const file = join(dir, 'big.jsonl');
    writeFileSync(file, lines.join('\n'));
    const t = await startTestServer();
    try {
      const run = await runCli(['import', file, '--url', t.url]);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`imported 500 payloads into ${t.url}\n`);
      expect(run.code).toBe(0);
      await untilSpoolApplied(t.url);
      expect(Object.values(storedBySession(t.dbPath)).reduce((a, b) => a + b, 0)).toBe(500);
    } finally {
      await t.close();
    }
  },
);
