/**
 * `project=` is exact: a key (matched by its SHA-256), a ref or more of the digest, a row id,
 * or the start of a ref or key label only one project has. Anything else is a 404 naming what
 * was asked — on the API, the stream and the CLI — never the nearest project's data.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { capture, startTestServer, type TestServer } from '../helpers/server.js';
import { authedFetch } from '../helpers/token.js';

const TS_KEY = 'mp_live_ts_sdk_exercise';
const GO_KEY = 'mp_live_go_omitted';
const sha = (key: string) => createHash('sha256').update(key).digest('hex');

describe('project lookup', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    expect((await t.ingest(capture('ts-sdk-exercise'), { key: TS_KEY })).status).toBe(202);
    expect((await t.ingest(capture('go-omitted'), { key: GO_KEY })).status).toBe(202);
  });
  afterAll(() => t.close());

  const status = async (project: string, path = '/api/summary') =>
    (await authedFetch(`${t.url}${path}?project=${encodeURIComponent(project)}`)).status;

  it('finds a project by its key, ref, whole digest, row id, a unique ref start and a unique label start', async () => {
    const { projects } = await t.api('projects');
    const ts = projects.find((p) => p.key_prefix === TS_KEY.slice(0, 12))!;
    const calls = async (project: string) => (await t.api('summary', { project })).calls;
    for (const value of [
      TS_KEY,
      sha(TS_KEY).slice(0, 12),
      sha(TS_KEY),
      String(ts.id),
      sha(TS_KEY).slice(0, 6),
      'mp_live_ts',
      TS_KEY.slice(0, 12),
    ])
      expect(await calls(value), value).toBe(7);
  });

  it('answers empty for a ref or digest the dashboard waits for (unknown_project=empty), 404 for anything typed', async () => {
    const waiting = sha('mp_live_not_sent_yet');
    for (const value of [waiting.slice(0, 12), waiting]) {
      const res = await authedFetch(`${t.url}/api/summary?project=${value}&unknown_project=empty`);
      expect(res.status, value).toBe(200);
      expect(((await res.json()) as { calls: number }).calls).toBe(0);
    }
    // A label, a word or an id is still refused by name: only a ref can be waited for.
    for (const value of ['mp_live_ts_sXYZ', 'nonexistent', '99999']) {
      const res = await authedFetch(`${t.url}/api/summary?project=${value}&unknown_project=empty`);
      expect(res.status, value).toBe(404);
    }
  });

  it('answers 404 naming the value for a key never sent, a label no project has, and an unused id', async () => {
    for (const value of ['mp_live_ts_sXYZ', 'nonexistent', '99999', 'ffff0000ffff0000']) {
      for (const path of ['/api/summary', '/api/calls', '/api/sessions', '/api/stream']) {
        const res = await authedFetch(`${t.url}${path}?project=${encodeURIComponent(value)}`);
        expect(res.status, `${path} ${value}`).toBe(404);
        const { error } = (await res.json()) as { error: string };
        expect(error).toContain(`no project '${value}'`);
      }
    }
  });

  it('refuses a start both projects share (mp_live_) as ambiguous, not the first one', async () => {
    expect(await status('mp_live_')).toBe(400);
  });

  it('the CLI exits 2 naming the value', async () => {
    for (const args of [
      ['report', '--json', '--db', t.dbPath, '--project', 'mp_live_ts_sXYZ'],
      ['export', '--db', t.dbPath, '--project', 'nonexistent'],
      ['tail', '--url', t.url, '--project', 'nonexistent'],
    ]) {
      const run = await runCli(args);
      expect(run.code, args[0]).toBe(2);
      expect(run.stderr).toContain('no project');
    }
  }, 30_000);
});
