import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { rmSync } from 'node:fs';
import { runCli, spawnCli, waitForOutput } from '../helpers/cli.js';
import { capture, startTestServer } from '../helpers/server.js';
import { TEST_TOKEN } from '../helpers/token.js';

interface Line {
  tool_name: string;
  outcome_class: string;
  link_from_previous: string;
  previous_id: number | null;
  args_hash: string;
}

const lines = (out: string): string[] => out.split('\n').filter(Boolean);

/** Resolves when the child has exited (also if it already has). */
const exited = (c: ReturnType<typeof spawnCli>): Promise<unknown> =>
  c.exitCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', r));

describe('tail: the live stream in a terminal', () => {
  it('prints one JSON object per call, with retry marks, honouring filters', async () => {
    const t = await startTestServer();
    try {
      const all = spawnCli(['tail', '--url', t.url, '--json', '--count', '7']);
      const fast = spawnCli([
        'tail',
        '--url',
        t.url,
        '--json',
        '--tool',
        'fast_tool',
        '--count',
        '3',
      ]);
      const errors = spawnCli([
        'tail',
        '--url',
        t.url,
        '--json',
        '--outcome',
        'error',
        '--count',
        '3',
      ]);
      for (const c of [all, fast, errors])
        await waitForOutput(c, () => c.err().includes('following'), 15_000);
      expect(await t.ingest(capture('ts-sdk-exercise'))).toHaveProperty('status', 202);
      for (const c of [all, fast, errors]) await exited(c);
      const parsed = lines(all.out()).map((l) => JSON.parse(l) as Line);
      expect(parsed.map((l) => l.tool_name)).toEqual([
        'fast_tool',
        'empty_tool',
        'error_tool',
        'crash_tool',
        'fast_tool',
        'slow_tool',
        'fast_tool',
      ]);
      expect(parsed.map((l) => l.outcome_class)).toEqual([
        'ok',
        'empty',
        'tool_error',
        'crashed',
        'bad_args',
        'ok',
        'ok',
      ]);
      // The worked example's chain: fast_tool f079… → c9af… → f7e7…, two retries.
      const f = lines(fast.out()).map((l) => JSON.parse(l) as Line);
      expect(f.map((l) => l.link_from_previous)).toEqual(['none', 'retry', 'retry']);
      expect(f[1]!.previous_id).not.toBeNull();
      expect(lines(errors.out()).map((l) => (JSON.parse(l) as Line).outcome_class)).toEqual([
        'tool_error',
        'crashed',
        'bad_args',
      ]);
      expect(all.exitCode).toBe(0);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('prints aligned text lines, with the database backlog first (--last)', async () => {
    const t = await startTestServer();
    try {
      await t.ingest(capture('ts-sdk-exercise'));
      const run = await runCli(
        ['tail', '--url', t.url, '--db', t.dbPath, '--last', '3', '--count', '3'],
        { env: { TZ: 'UTC' } },
      );
      expect(run.code).toBe(0);
      const out = lines(run.stdout);
      expect(out[0]).toMatch(
        /^time\s+session\s+client\s+tool\s+outcome\s+took\s+size\s+args_hash\s+mark$/,
      );
      expect(out.slice(1)).toEqual([
        '09:49:43.565  s_e4cc6a39269d  mcpulse-exercise    fast_tool               bad_args        5ms     190  c9af52d21b70  ↻ retry',
        '09:49:43.571  s_e4cc6a39269d  mcpulse-exercise    slow_tool               ok            3.00s      58  f079ac726bf6',
        '09:49:46.577  s_e4cc6a39269d  mcpulse-exercise    fast_tool               ok              0ms      72  f7e7304a0bed  ↻ retry',
      ]);
    } finally {
      await t.close();
    }
  }, 30_000);

  /** One call of the worked example. */
  const one = (i: number): unknown =>
    (JSON.parse(capture('ts-sdk-exercise')) as { batch: unknown[] }).batch[i];

  it('waits for a dashboard that is not there yet, and reconnects when it restarts', async () => {
    const first = await startTestServer();
    const port = first.server.info.port;
    await first.server.close();
    const tail = spawnCli(['tail', '--url', `http://127.0.0.1:${port}`, '--json', '--count', '2']);
    try {
      await waitForOutput(tail, () => tail.err().includes('no dashboard answers'), 15_000);
      // Up: a call arrives; down: the connection is lost; up again: the next call arrives.
      let server = await startServer({
        store: first.store,
        port,
        hosts: ['127.0.0.1'],
        rateLimit: false,
        token: TEST_TOKEN,
      });
      await waitForOutput(tail, () => tail.err().includes('connected to'), 15_000);
      await first.ingest({ batch: [one(1)] });
      await waitForOutput(tail, (o) => lines(o).length >= 1);
      await server.close();
      await waitForOutput(tail, () => tail.err().includes('connection lost'), 15_000);
      server = await startServer({
        store: first.store,
        port,
        hosts: ['127.0.0.1'],
        rateLimit: false,
        token: TEST_TOKEN,
      });
      await waitForOutput(tail, () => tail.err().split('connected to').length === 3, 15_000);
      await first.ingest({ batch: [one(2)] });
      await exited(tail);
      expect(lines(tail.out())).toHaveLength(2);
      await server.close();
    } finally {
      tail.kill();
      first.store.close();
      rmSync(first.dir, { recursive: true, force: true });
    }
  }, 60_000);
});
