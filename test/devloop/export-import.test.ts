import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../../src/api/call.js';
import { openStore, type CallRow, type ReadStore } from '../../src/store/index.js';
import { runCli, spawnCli, waitForOutput } from '../helpers/cli.js';
import { capture, startTestServer, type TestServer } from '../helpers/server.js';
import { authedFetch } from '../helpers/token.js';

/** A newer SDK's payloads: unknown fields at the top level and per tool. */
const PHP_STYLE = {
  batch: [
    {
      v: 1,
      type: 'startup',
      session_id: 's_5e5510a0b1c2',
      client_name: 'cursor-vscode',
      sdk: 'mcpulse-php/2.1.0',
      transport: 'stdio',
      tools: [{ name: 'find_invoice', schema_bytes: 512, schema_hash: 'ab12cd34' }],
    },
    {
      v: 1,
      type: 'call',
      session_id: 's_5e5510a0b1c2',
      client_name: 'cursor-vscode',
      tool_name: 'find_invoice',
      started_at: '2026-12-02T11:00:00+01:00',
      duration_ms: 3,
      outcome: 'ok',
      response_bytes: 2,
      is_empty: true,
      args_hash: '44136fa355b3',
      trace: { id: 'abc', sampled: true },
    },
  ],
};

/** What a call is, on the wire, whatever database it sits in. */
const wire = (c: CallRow) => ({
  session_id: c.session_id,
  client_name: c.client_name,
  tool_name: c.tool_name,
  started_at: c.started_at,
  started_ms: c.started_ms,
  duration_ms: c.duration_ms,
  outcome: c.outcome,
  response_bytes: c.response_bytes,
  is_empty: c.is_empty,
  args_hash: c.args_hash,
  extra: c.extra,
});

/** Every number the dashboard shows for a store, minus the echo of the filter. */
async function numbers(store: ReadStore, query: Record<string, string> = {}) {
  const { filter: _f, ...summary } = await callApi(store, 'summary', query);
  const sessions = await callApi(store, 'sessions', {
    ...query,
    limit: 1000,
  });
  const chains = await callApi(store, 'chains', {
    ...query,
    limit: 500,
  });
  return {
    summary,
    sessions: sessions.sessions.map(({ project_id: _p, ...s }) => s),
    chains: chains.chains.map((c) => [c.session_id, c.tool, c.call_count, c.resolved]),
  };
}

describe('export → import reproduces the same numbers', () => {
  let t: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpulse-xport-'));
    t = await startTestServer();
    for (const name of ['ts-sdk-exercise', 'go-style', 'dotnet-style'] as const)
      await t.ingest(capture(name));
    await t.ingest(PHP_STYLE);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exports exactly the wire format, one payload per line, unknown fields included', async () => {
    const file = join(dir, 'all.jsonl');
    const run = await runCli(['export', '--db', t.dbPath, '--out', file]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`exported 13 calls and 4 startups to ${file}\n`);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(17);
    const payloads = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // Arrival order, each request's startup first.
    expect(payloads.map((p) => p.type).join(',')).toBe(
      [
        'startup',
        ...Array(7).fill('call'),
        'startup',
        'call',
        'call',
        'call',
        'startup',
        'call',
        'call',
        'startup',
        'call',
      ].join(','),
    );
    const sent = [
      capture('ts-sdk-exercise'),
      capture('go-style'),
      capture('dotnet-style'),
      JSON.stringify(PHP_STYLE),
    ].flatMap((text) => (JSON.parse(text) as { batch: Record<string, unknown>[] }).batch);
    // Each line is what was sent: Go's omitted zero fields stay omitted.
    payloads.forEach((p, i) => expect(p).toEqual(sent[i]));
  });

  it('imports through ingest validation and reads back the same calls and numbers', async () => {
    const file = join(dir, 'all.jsonl');
    const target = join(dir, 'copy.db');
    const run = await runCli(['import', file, '--db', target]);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`imported 17 payloads into ${target}\n`);
    expect(run.code).toBe(0);
    const copy = openStore(target, { readonly: true });
    try {
      expect(copy.read.calls({}, { limit: 1000 }).map(wire)).toEqual(
        t.store.read.calls({}, { limit: 1000 }).map(wire),
      );
      expect(await numbers(copy)).toEqual(await numbers(t.store));
      expect(copy.read.projects().map((p) => p.key_prefix)).toEqual(['mp_live_impo']);
    } finally {
      copy.close();
    }
  });

  it('exports one session with its startup, which replays to the same session numbers', async () => {
    const file = join(dir, 'session.jsonl');
    const run = await runCli([
      'export',
      '--db',
      t.dbPath,
      '--session',
      's_e4cc6a39269d',
      '--out',
      file,
    ]);
    expect(run.code).toBe(0);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(8);
    const target = join(dir, 'session.db');
    expect((await runCli(['import', file, '--db', target, '--key', 'mp_live_one'])).code).toBe(0);
    const copy = openStore(target, { readonly: true });
    try {
      const { summary } = await numbers(copy);
      const { summary: original } = await numbers(t.store, { session: 's_e4cc6a39269d' });
      for (const k of [
        'calls',
        'sessions',
        'retries',
        'retry_chains',
        'first_call_success',
        'outcomes',
        'latency',
      ] as const) {
        expect(summary[k]).toEqual(original[k]);
      }
      expect(summary).toMatchObject({
        calls: 7,
        retries: 2,
        first_call_success: { successes: 2, calls: 7 },
      });
    } finally {
      copy.close();
    }
  });

  it('offers the same files as downloads from GET /api/export', async () => {
    const cli = await runCli(['export', '--db', t.dbPath, '--session', 's_e4cc6a39269d']);
    const res = await authedFetch(`${t.url}/api/export?format=jsonl&session=s_e4cc6a39269d`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="mcpulse-s_e4cc6a39269d-\d{4}-\d{2}-\d{2}\.jsonl"/,
    );
    expect(await res.text()).toBe(cli.stdout);
    const csv = await authedFetch(`${t.url}/api/export?format=csv`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = (await csv.text()).trimEnd().split('\r\n');
    expect(rows[0]).toMatch(/^tool,registered,dead,schema_bytes,calls,first_call_successes,/);
    expect(rows.length).toBeGreaterThan(3);
    const md = await authedFetch(`${t.url}/api/export?format=md&tool=fast_tool`);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await md.text()).toMatch(/^# MCPulse report\n\nScope: tool fast_tool\./);
    const bad = await authedFetch(`${t.url}/api/export?format=xml`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "format: expected jsonl, csv, md, received 'xml'" });
  });
});

describe('import reports every reject by line', () => {
  const good = (JSON.parse(capture('ts-sdk-exercise')) as { batch: unknown[] }).batch;
  const lines = [
    JSON.stringify(good[0]),
    '',
    JSON.stringify({ ...(good[1] as object), started_at: 'yesterday' }),
    '{not json',
    JSON.stringify(good[2]),
    JSON.stringify({ v: 2, type: 'call' }),
    JSON.stringify({ ...(good[3] as object), type: 'heartbeat' }),
    capture('go-style').trim(), // a whole request body on one line: replayed item by item
  ];
  const expected = [
    'line 3: started_at: Invalid datetime',
    'line 4: not valid JSON: ',
    'line 6: v: Invalid literal value, expected 1',
    "line 7: type: Invalid discriminator value. Expected 'call' | 'startup' | 'agreement'",
  ];

  it('into a database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-import-'));
    try {
      const file = join(dir, 'capture.jsonl');
      writeFileSync(file, lines.join('\n'));
      const db = join(dir, 'x.db');
      const run = await runCli(['import', file, '--db', db]);
      expect(run.code).toBe(1);
      const out = run.stdout.trimEnd().split('\n');
      expect(out).toHaveLength(4);
      out.forEach((l, i) => expect(l.startsWith(expected[i]!)).toBe(true));
      expect(run.stderr).toBe(`imported 6 payloads into ${db}; 4 rejected (listed above)\n`);
      const store = openStore(db, { readonly: true });
      try {
        // The ingest log holds what production would have dropped silently (not the non-JSON line).
        expect(store.read.counts()).toMatchObject({ calls: 4, startups: 2, rejections: 3 });
      } finally {
        store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('through a running dashboard (--url), reasons read back from its ingest log', async () => {
    const t = await startTestServer();
    try {
      const run = await runCli(['import', '-', '--url', t.url], { input: lines.join('\n') });
      expect(run.code).toBe(1);
      const out = run.stdout.trimEnd().split('\n');
      out.forEach((l, i) => expect(l.startsWith(expected[i]!)).toBe(true));
      expect(run.stderr).toBe(`imported 6 payloads into ${t.url}; 4 rejected (listed above)\n`);
      expect(t.store.read.counts()).toMatchObject({ calls: 4, startups: 2 });
    } finally {
      await t.close();
    }
  });

  it('refuses a database another mcpulse-devtools is serving, pointing at --url', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-import-'));
    const db = join(dir, 'served.db');
    const serve = spawnCli(['serve', '--port', '0', '--db', db]);
    try {
      await waitForOutput(serve, (o) => o.includes('dashboard'));
      const file = join(dir, 'c.jsonl');
      writeFileSync(file, lines[0]!);
      const run = await runCli(['import', file, '--db', db]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/is in use by another mcpulse-devtools/);
      expect(run.stderr).toContain('--url');
    } finally {
      serve.kill('SIGTERM');
      await new Promise((r) => serve.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
