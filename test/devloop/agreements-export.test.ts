/**
 * Agreement verdicts survive the round trips a user makes: export → import (JSONL), a retention
 * pass by age, and clear-all.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngest, LiveBus } from '../../src/ingest/index.js';
import { callApi } from '../../src/api/call.js';
import { connectionOf } from '../../src/store/connection.js';
import { openStore, type AgreementRow } from '../../src/store/index.js';
import { createRetention } from '../../src/store/retention/index.js';
import { runCli } from '../helpers/cli.js';
import { capture, startTestServer, type TestServer } from '../helpers/server.js';
import { ingestAt } from '../reliability/helpers/data.js';
import { answerOf } from '../../src/api/remote.js';
import { authedFetch } from '../helpers/token.js';

const wireOf = (a: AgreementRow) => ({
  session_id: a.session_id,
  field: a.field,
  tool_a: a.tool_a,
  tool_b: a.tool_b,
  agreed: a.agreed,
  checked_at: a.checked_at,
  checked_ms: a.checked_ms,
  window_ms: a.window_ms,
  extra: a.extra,
});

describe('agreements: export → import', () => {
  let t: TestServer;
  let dir: string;
  const sent = (JSON.parse(capture('php-0.1.6')) as { batch: Record<string, unknown>[] }).batch;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpulse-agree-'));
    t = await startTestServer();
    await t.ingest(capture('php-0.1.6'));
    // One more verdict with a field no SDK version sends yet: it must replay too.
    await t.ingest({ batch: [{ ...sent[3], agreed: true, trace: 'x1' }] });
    // A later request that leads with a startup: the verdict-only request stays before it.
    await t.ingest(capture('go-style'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes each verdict as its wire line, in request order, after the calls of its request', async () => {
    const file = join(dir, 'all.jsonl');
    const run = await runCli(['export', '--db', t.dbPath, '--out', file]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`exported 8 calls and 2 startups (and 3 agreements) to ${file}\n`);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const payloads = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(payloads.map((p) => p.type)).toEqual([
      'startup',
      ...Array(5).fill('call'),
      'agreement',
      'agreement',
      'agreement',
      'startup',
      'call',
      'call',
      'call',
    ]);
    expect(payloads.slice(6, 8)).toEqual(sent.filter((p) => p.type === 'agreement'));
    expect(payloads[8]).toEqual({ ...sent[3], agreed: true, trace: 'x1' });
  });

  it('imports back through ingest validation with the same verdicts', async () => {
    const target = join(dir, 'copy.db');
    const run = await runCli(['import', join(dir, 'all.jsonl'), '--db', target]);
    expect(run.code).toBe(0);
    const copy = openStore(target);
    try {
      const before = await t.api('agreements');
      const after = await callApi(copy, 'agreements');
      expect(after.agreements.map(wireOf)).toEqual(before.agreements.map(wireOf));
      expect(after.pairs).toEqual(before.pairs);
    } finally {
      copy.close();
    }
  });

  it('report --md adds the agreement table, diverged pairs first', async () => {
    const run = await runCli(['report', '--db', t.dbPath]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      [
        '## Agreement between tools',
        '',
        '| Field | Tools | Checks | Diverged | Latest |',
        '| --- | --- | ---: | ---: | --- |',
        '| issue_id | search vs lookup | 3 | 1 | agreed |',
      ].join('\n'),
    );
    const none = await runCli(['report', '--db', t.dbPath, '--tool', 'get_order']);
    expect(none.stdout).not.toContain('Agreement between tools');
  });

  it('exports only the verdicts a tool took part in when filtered by tool', async () => {
    const run = await runCli(['export', '--db', t.dbPath, '--tool', 'close_issue']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('"type":"agreement"');
    const both = await runCli(['export', '--db', t.dbPath, '--tool', 'lookup']);
    expect(both.stdout.match(/"type":"agreement"/g)).toHaveLength(3);
  });
});

describe('agreements: retention and clear-all', () => {
  it('a pass deletes verdicts past the age cap and leaves no row pointing at a deleted batch', async () => {
    const DAY = 86_400_000;
    const NOW = Date.UTC(2026, 11, 2, 12);
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-agree-ret-'));
    const store = openStore(join(dir, 'devtools.db'));
    try {
      const ingest = createIngest({ store, bus: new LiveBus() });
      const verdict = JSON.parse(capture('php-0.1.6')).batch[3] as Record<string, unknown>;
      ingestAt(ingest, [verdict, verdict], NOW - 40 * DAY);
      ingestAt(ingest, [{ ...verdict, agreed: true }], NOW - DAY);
      const report = await createRetention(store, { now: () => NOW }).runPass();
      expect(report.error).toBeUndefined();
      expect(report.deleted.agreements).toBe(2);
      expect(report.deleted.batches).toBe(1);
      expect(store.read.agreements.list({}).map((a) => a.agreed)).toEqual([true]);
      expect(connectionOf(store).pragma('foreign_key_check')).toEqual([]);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('clear-all empties the agreements table', async () => {
    const t = await startTestServer();
    try {
      await t.ingest(capture('php-0.1.6'));
      const res = await authedFetch(`${t.url}/api/admin/clear`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"confirm":"delete all data"}',
      });
      expect(res.status).toBe(200);
      expect(answerOf('clear', await res.json()).deleted.agreements).toBe(2);
      expect((await t.api('agreements')).checks).toBe(0);
    } finally {
      await t.close();
    }
  });
});
