import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type CallRow } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The outcome class of a stored call, as the dashboard counts it. */
const klass = (c: CallRow): string => (c.outcome === 'ok' && c.is_empty ? 'empty' : c.outcome);

function tally(calls: CallRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of calls) out[klass(c)] = (out[klass(c)] ?? 0) + 1;
  return out;
}

describe('demo against a running dashboard', () => {
  let t: TestServer;
  let run: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    t = await startTestServer();
    run = await runCli(['demo', '--once', '--fast', '--url', t.url]);
  }, 60_000);
  afterAll(() => t.close());

  it('sends through the real ingest endpoint and says what it sent', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`sending to the dashboard already running at ${t.url}`);
    expect(run.stdout).toMatch(
      /7 sessions, 46 calls and 8 startups sent to .* \(54 payloads accepted in \d+ requests, 0 dropped\)/,
    );
  });

  it('stores the scripted traffic: sessions, clients, outcomes, startups', async () => {
    const { calls } = await t.api('calls', { project: 'mp_live_demo', limit: 1000 });
    expect(calls).toHaveLength(46);
    expect(new Set(calls.map((c) => c.session_id)).size).toBe(7);
    expect(tally(calls)).toEqual({ ok: 34, empty: 7, bad_args: 2, tool_error: 1, crashed: 2 });
    expect(new Set(calls.map((c) => c.client_name))).toEqual(
      new Set(['claude-ai', 'cursor-vscode', 'claude-code', 'Visual Studio Code', 'windsurf']),
    );
    // Every started_at is a real, recent instant.
    for (const c of calls) expect(Math.abs(Date.now() - c.started_ms)).toBeLessThan(120_000);
    const { startups } = await t.api('startups', { project: 'mp_live_demo', limit: 100 });
    expect(startups).toHaveLength(8);
    // Two clients of one server process: two startups, one session.
    const sso = calls.find((c) => c.client_name === 'Visual Studio Code')!.session_id;
    expect(
      startups
        .filter((s) => s.session_id === sso)
        .map((s) => s.client_name)
        .sort(),
    ).toEqual(['Visual Studio Code', 'claude-code']);
    const registered = startups[0]!.tools.map((t) => t.name);
    expect(registered).toContain('archive_project');
    expect(calls.some((c) => c.tool_name === 'archive_project')).toBe(false); // the dead tool
    expect(registered).not.toContain('search_tickets'); // called, never registered
    expect(calls.filter((c) => c.tool_name === 'search_tickets').map(klass)).toEqual(['bad_args']);
    const heavy = calls.find((c) => c.tool_name === 'export_board')!;
    expect(heavy.response_bytes).toBeGreaterThan(10_000);
    // Paging: the same arguments four times in one session.
    const paging = calls.filter((c) => c.tool_name === 'read_activity');
    expect(new Set(paging.map((c) => c.args_hash)).size).toBe(1);
    expect(paging.map(klass)).toEqual(['ok', 'ok', 'ok', 'empty']);
  });

  it('gives the numbers the scripts determine (docs/cli.md, "What the demo sends")', async () => {
    const summary = await t.api('summary', { project: 'mp_live_demo' });
    expect(summary).toMatchObject({
      calls: 46,
      sessions: 7,
      retries: 17,
      repeats: 4,
      retry_chains: 8,
      first_call_success: { rate: 0.5, successes: 23, calls: 46 },
      outcomes: { ok: 34, empty: 7, bad_args: 2, tool_error: 1, crashed: 2 },
      registered_tools: 9,
      dead_tools: 1,
      unregistered_tools: 1,
      clients: 5,
    });
    const chains = await t.api('chains', { project: 'mp_live_demo' });
    expect(chains).toMatchObject({ resolved: 6, unresolved: 2 });
    const tools = (
      summary as { tools: { name: string; calls: number; first_call_successes: number }[] }
    ).tools;
    expect(tools.find((x) => x.name === 'search_issues')).toMatchObject({
      calls: 22,
      first_call_successes: 5,
    });
  });

  it('names each session by its scenario, and finds it by that name', async () => {
    const { sessions } = await t.api('sessions', { project: 'mp_live_demo', limit: 100 });
    expect(sessions.map((x) => x.label).sort()).toEqual(
      [
        'SSO outage (two clients, one server process)',
        'quarterly numbers',
        'triage a login bug',
        ...sessions.filter((x) => x.label?.startsWith('standup')).map((x) => x.label),
      ].sort(),
    );
    expect(new Set(sessions.map((x) => x.label)).size).toBe(7);
    const found = await t.api('sessions', { project: 'mp_live_demo', q: 'quarterly' });
    expect(found.sessions.map((x) => x.label)).toEqual(['quarterly numbers']);
    // The label travels on the startup, as an extra field (the SDK scenarios' startups: the
    // proxied session's startup is what the proxy saw on the wire, with no such field).
    const { startups } = await t.api('startups', { project: 'mp_live_demo', limit: 100 });
    expect(startups.every((st) => typeof st.extra?.session_label === 'string')).toBe(true);
  });

  it('groups everything under the demo key’s project', async () => {
    const { projects } = await t.api('projects');
    expect(projects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key_prefix: 'mp_live_demo', calls: 46, sessions: 7 }),
      ]),
    );
  });

  it('runs one session through the real proxy, its own project, with every message kept', async () => {
    const { projects } = await t.api('projects');
    expect(projects).toHaveLength(2);
    const { calls } = await t.api('calls', { project: 'px_demo-proxied', limit: 100 });
    expect(calls.map((c) => c.tool_name)).toEqual([
      'search_issues',
      'get_issue',
      'get_issue',
      'run_query',
      'run_query',
      'read_activity',
    ]);
    const { messages } = await t.api('messages', { session: calls[0]!.session_id, limit: 100 });
    expect(messages.length).toBeGreaterThanOrEqual(2 * (calls.length + 2));
    const failed = await t.api('call', { id: calls.find((c) => c.tool_name === 'run_query')!.id });
    expect(failed.content!.error).toBeTruthy();
  });
});

describe('demo with no dashboard running', () => {
  it('starts one on the URL’s port with --db, fills it, and (with --once) stops it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-demo-'));
    try {
      const db = join(dir, 'devtools.db');
      const run = await runCli([
        'demo',
        '--once',
        '--fast',
        '--url',
        'http://localhost:0',
        '--db',
        db,
      ]);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/dashboard\s+http:\/\/localhost:\d+/);
      expect(run.stdout).toContain('46 calls');
      const store = openStore(db, { readonly: true });
      try {
        // The scripted 46 calls and 8 startups, and the proxied session's 6 calls and 1 startup.
        expect(store.read.counts()).toMatchObject({ calls: 52, startups: 9, rejections: 0 });
      } finally {
        store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a port something else answers on', async () => {
    const other = createServer((_req, res) => res.writeHead(404).end('not here'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const port = (other.address() as { port: number }).port;
    try {
      const run = await runCli(['demo', '--once', '--fast', '--url', `http://127.0.0.1:${port}`]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`something else answers at http://127.0.0.1:${port} (HTTP 404)`);
    } finally {
      other.close();
    }
  });

  it('explains its flags', async () => {
    const run = await runCli(['demo', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--once');
    const bad = await runCli(['demo', '--url', 'ftp://x/y']);
    expect(bad.code).toBe(2);
  });
});
