/**
 * Two keys with the same 12-character prefix are two projects everywhere: the API's project
 * list and `?project=`, the stream, `report --project`, `export --project` — and the prefix
 * alone, which would name both, is refused with the refs to use.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { runCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authedFetch } from '../helpers/token.js';

const KEY_A = 'mp_live_rb_scenario';
const KEY_B = 'mp_live_rb_scen2';
const refOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 12);

const callsOf = (session: string, n: number) => ({
  batch: Array.from({ length: n }, (_, i) => ({
    v: 1,
    type: 'call',
    session_id: session,
    client_name: 'claude-code',
    tool_name: 'search',
    started_at: new Date(Date.UTC(2026, 11, 2, 10, 0, i * 40)).toISOString(),
    duration_ms: 10,
    outcome: 'ok',
    response_bytes: 10,
    is_empty: false,
    args_hash: '44136fa355b3',
  })),
});

describe('projects are the full key hash', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    expect((await t.ingest(callsOf('s_aaaaaaaaaaaa', 10), { key: KEY_A })).status).toBe(202);
    expect((await t.ingest(callsOf('s_bbbbbbbbbbbb', 9), { key: KEY_B })).status).toBe(202);
  });
  afterAll(() => t.close());

  it('lists two projects with one label, distinct refs and a warning', async () => {
    const { projects, warnings } = await t.api('projects');
    const byRef = Object.fromEntries(projects.map((p) => [p.ref, p]));
    expect(Object.keys(byRef).sort()).toEqual([refOf(KEY_A), refOf(KEY_B)].sort());
    expect(byRef[refOf(KEY_A)]).toMatchObject({
      key_prefix: 'mp_live_rb_s',
      calls: 10,
      shares_prefix_with: [refOf(KEY_B)],
    });
    expect(byRef[refOf(KEY_B)]).toMatchObject({ calls: 9, shares_prefix_with: [refOf(KEY_A)] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.key_prefix).toBe('mp_live_rb_s');
    expect(warnings[0]!.message).toContain('separate projects');
  });

  it('selects each by its ref or its key; refuses the shared prefix naming both refs', async () => {
    const calls = async (project: string) => (await t.api('summary', { project })).calls;
    expect(await calls(refOf(KEY_A))).toBe(10);
    expect(await calls(refOf(KEY_B))).toBe(9);
    expect(await calls(KEY_A)).toBe(10);
    expect(await calls(KEY_B)).toBe(9);
    const summary = await t.api('summary', { project: refOf(KEY_B) });
    expect(summary.filter).toMatchObject({
      project_ref: refOf(KEY_B),
      project_label: 'mp_live_rb_s',
    });
    for (const path of ['/api/summary', '/api/calls', '/api/stream']) {
      const res = await authedFetch(`${t.url}${path}?project=mp_live_rb_s`);
      expect(res.status, path).toBe(400);
      const { error } = (await res.json()) as { error: string };
      expect(error).toContain("project 'mp_live_rb_s' is ambiguous");
      expect(error).toContain(refOf(KEY_A));
      expect(error).toContain(refOf(KEY_B));
    }
  });

  it('report --project and export --project take the ref, and refuse the prefix', async () => {
    const report = async (project: string) =>
      runCli(['report', '--json', '--db', t.dbPath, '--project', project]);
    const a = await report(refOf(KEY_A));
    expect(a.code).toBe(0);
    expect((JSON.parse(a.stdout) as { summary: { calls: number } }).summary.calls).toBe(10);
    const b = await report(refOf(KEY_B));
    expect((JSON.parse(b.stdout) as { summary: { calls: number } }).summary.calls).toBe(9);
    const md = await runCli(['report', '--db', t.dbPath, '--project', refOf(KEY_B)]);
    expect(md.stdout).toContain(`project ${refOf(KEY_B)} (key mp_live_rb_s)`);
    const shared = await report('mp_live_rb_s');
    expect(shared.code).toBe(2);
    expect(shared.stderr).toContain("--project 'mp_live_rb_s' is ambiguous");

    const exported = await runCli(['export', '--db', t.dbPath, '--project', refOf(KEY_B)]);
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(9);
    expect(lines.every((l) => l.includes('s_bbbbbbbbbbbb'))).toBe(true);
    const refused = await runCli(['export', '--db', t.dbPath, '--project', 'mp_live_rb_s']);
    expect(refused.code).toBe(2);
  });

  it('tail follows one project by its ref, and stops at once on the shared prefix', async () => {
    const shared = await runCli(['tail', '--url', t.url, '--project', 'mp_live_rb_s']);
    expect(shared.code).toBe(2);
    expect(shared.stderr).toContain("project 'mp_live_rb_s' is ambiguous");
    const last = await runCli([
      'tail',
      '--db',
      t.dbPath,
      '--url',
      t.url,
      '--json',
      '--last',
      '20',
      '--count',
      '9',
      '--project',
      refOf(KEY_B),
    ]);
    expect(last.code).toBe(0);
    const sessions = last.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { session_id: string }).session_id);
    expect(sessions).toHaveLength(9);
    expect(new Set(sessions)).toEqual(new Set(['s_bbbbbbbbbbbb']));
  }, 30_000);

  it('keeps the two keys as two rows in the store (the key hash was always the identity there)', () => {
    const rows = connectionOf(t.store)
      .prepare('SELECT key_prefix, count(*) AS n FROM projects GROUP BY key_prefix')
      .all();
    expect(rows).toEqual([{ key_prefix: 'mp_live_rb_s', n: 2 }]);
  });
});
