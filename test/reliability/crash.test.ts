/**
 * kill -9 during sustained ingest, three times over: every batch that got a 2xx is in the
 * database exactly once, no batch is half-stored, and the file opens clean.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { untilSpoolApplied } from '../helpers/server.js';
import { batchOf, postIngest, serve, tempDir } from './helpers/process.js';
import { getRemote } from '../../src/api/remote.js';

const { dir, remove } = tempDir('mcpulse-crash-');
afterAll(remove);

const PER_BATCH = 30;
const PRODUCERS = 6;

it(
  'loses no acknowledged batch and stores none twice across three kill -9s',
  { timeout: 90_000 },
  async () => {
    const db = join(dir, 'devtools.db');
    const acked = new Set<string>();
    const sent = new Set<string>();
    let next = 0;

    for (let round = 0; round < 3; round++) {
      const server = await serve(db);
      let dead = false;
      let killed = false;
      const producer = async (): Promise<void> => {
        while (!dead) {
          const session = `s_r${round}_${String(next++).padStart(6, '0')}`;
          sent.add(session);
          try {
            const res = await postIngest(server.url, batchOf(session, PER_BATCH));
            if (res.status >= 200 && res.status < 300) acked.add(session);
            else throw new Error(`unexpected ${res.status}: ${await res.text()}`);
          } catch (error) {
            if (!killed) throw error;
          }
        }
      };
      const producers = Array.from({ length: PRODUCERS }, producer);
      // Let it get going, then pull the plug mid-stream.
      await new Promise((resolve) => setTimeout(resolve, 700 + round * 300));
      killed = true;
      server.child.kill('SIGKILL');
      await server.exited;
      dead = true;
      await Promise.all(producers);
    }

    // A fourth start on the same file: no stale lock, recovery from the WAL, still serving.
    const server = await serve(db);
    try {
      const res = await postIngest(server.url, batchOf('s_after', PER_BATCH));
      expect(res.status).toBe(202);
      // The kills left acknowledged flushes in the spool: this start applies them. A backlog
      // that large is a flood's, which reads do not wait out, so wait for it here.
      const leftInSpool = await untilSpoolApplied(server.url);
      const status = await getRemote(server.url, 'status', {}, { token: server.token });
      const file = new Database(db, { readonly: true });
      try {
        expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(file.pragma('foreign_key_check')).toEqual([]);
        const rows = file
          .prepare<[], { session_id: string; n: number }>(
            'SELECT session_id, count(*) AS n FROM calls GROUP BY session_id',
          )
          .all();
        const stored = new Map(rows.map((r) => [r.session_id, r.n]));
        // Every acknowledged batch: there, whole, once.
        for (const session of acked) expect(stored.get(session), session).toBe(PER_BATCH);
        // Nothing half-stored or doubled, acknowledged or not (a batch whose answer was lost
        // in the kill may be there — whole).
        for (const [session, n] of stored) {
          expect(n, session).toBe(PER_BATCH);
          expect(sent.has(session) || session === 's_after', session).toBe(true);
        }
        expect(status.counts.calls).toBe(rows.reduce((a, r) => a + r.n, 0));
        console.info(
          `crash test: ${sent.size} batches sent, ${acked.size} acknowledged, ${stored.size - 1} stored, ` +
            `${stored.size - 1 - acked.size} stored without an answer, ` +
            `${leftInSpool} acknowledged flushes still spooled at the last restart`,
        );
        expect(acked.size).toBeGreaterThan(30);
      } finally {
        file.close();
      }
    } finally {
      await server.stop();
    }
  },
);
