import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../../src/api/call.js';
import { openStore } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { capture, startTestServer, type TestServer } from '../helpers/server.js';

describe('report: the summary straight from the database, and CI gates', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    await t.ingest(capture('ts-sdk-exercise'));
  });
  afterAll(() => t.close());

  it('--json is /api/summary exactly, with insights, without a server', async () => {
    const run = await runCli(['report', '--json', '--db', t.dbPath]);
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout) as {
      summary: Record<string, unknown>;
      insights: unknown[];
      gates: unknown[];
    };
    expect(body.summary).toEqual(await callApi(t.store, 'summary'));
    // The worked example of wire-format §4.
    expect(body.summary).toMatchObject({
      calls: 7,
      sessions: 1,
      retries: 2,
      retry_chains: 1,
      first_call_success: { successes: 2, calls: 7 },
      outcomes: { ok: 3, empty: 1, bad_args: 1, tool_error: 1, crashed: 1 },
      registered_tools: 6,
      dead_tools: 1,
      schema_bytes: 1798,
    });
    expect(body.gates).toEqual([]);
  });

  it('--md (the default) renders the same numbers, and filters apply', async () => {
    const run = await runCli(['report', '--db', t.dbPath, '--tool', 'fast_tool']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# MCPulse report\n\nScope: tool fast_tool\./);
    expect(run.stdout).toContain('| Calls | 3 in 1 sessions from 1 clients |');
    expect(run.stdout).toContain('| First-call success | 33.3% (1 of 3) |');
    const all = await runCli(['report', '--md', '--db', t.dbPath]);
    expect(all.stdout).toContain('| First-call success | 28.6% (2 of 7) |');
    expect(all.stdout).toMatch(/\| dead_tool \(never called\) \| 0 \|/);
  });

  it('exits 1 with one clear line per breached gate, 0 when all pass', async () => {
    const fail = await runCli([
      'report',
      '--db',
      t.dbPath,
      '--fail-under-fcs',
      '0.8',
      '--fail-over-error-rate',
      '50%',
      '--fail-over-p95-ms',
      '1000',
    ]);
    expect(fail.code).toBe(1);
    expect(fail.stderr).toBe(
      'report: FAIL first-call success 28.6% is under 80.0% (--fail-under-fcs 0.8)\n' +
        'report: FAIL p95 latency 3004 ms is over 1000 ms (--fail-over-p95-ms 1000)\n',
    );
    expect(fail.stdout).toContain(
      'report: ok   error rate 42.9% is at most 50.0% (--fail-over-error-rate 0.5)',
    );
    const pass = await runCli([
      'report',
      '--json',
      '--db',
      t.dbPath,
      '--fail-under-fcs',
      '0.25',
      '--fail-over-empty-rate',
      '0.2',
    ]);
    expect(pass.code).toBe(0);
    expect(
      (JSON.parse(pass.stdout) as { gates: { passed: boolean }[] }).gates.map((g) => g.passed),
    ).toEqual([true, true]);
    const empty = await runCli([
      'report',
      '--db',
      t.dbPath,
      '--session',
      's_nothing',
      '--fail-under-fcs',
      '0.5',
    ]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain(
      'FAIL first-call success: no calls in scope, nothing to measure',
    );
  });

  it('says what is wrong with its flags or its database', async () => {
    const bad = await runCli(['report', '--db', t.dbPath, '--fail-under-fcs', '1.5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "--fail-under-fcs: expected a fraction 0–1 (0.8) or a percentage (80%), received '1.5'",
    );
    const badTime = await runCli(['report', '--db', t.dbPath, '--from', 'last tuesday']);
    expect(badTime.code).toBe(2);
    expect(badTime.stderr).toContain('--from: expected an ISO 8601 time');
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-report-'));
    try {
      const missing = await runCli(['report', '--db', join(dir, 'none.db')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('no database at');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('report on a file whose dashboard stopped with flushes still spooled', () => {
  it('says how many acknowledged items are not in the report yet, and how to store them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-report-spool-'));
    try {
      const path = join(dir, 'devtools.db');
      const store = openStore(path);
      store.spool.add([
        {
          receivedMs: Date.now(),
          keySha256: 'c'.repeat(64),
          keyPrefix: 'mp_live_spoo',
          userAgent: null,
          payloads: 2,
          body: Buffer.from('{"batch":[]}'),
        },
      ]);
      store.close();
      const run = await runCli(['report', '--json', '--db', path]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(
        'note: 2 acknowledged items (1 flush) are still in the ingest spool and not in this output — start the dashboard once (node --import tsx src/cli/main.ts serve) to store them\n',
      );
      expect((JSON.parse(run.stdout) as { summary: { calls: number } }).summary.calls).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
