/**
 * A flood of unique keys does not make `/api/projects` unbounded (issue 19: 60,000 one-shot
 * keys, a 12 MB answer). 20,000 keys stored through the real ingest handler into a real file,
 * then the real server: the answer lists the 500 most recently seen with the total, `?limit=`
 * pages wider up to 5,000, and a prefix all of them share is one warning naming 20 refs.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createIngest, LiveBus } from '../../src/ingest/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authedFetch } from '../helpers/token.js';

const KEYS = 20_000;
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({}, (store) => {
    const ingest = createIngest({ store, bus: new LiveBus() });
    for (let i = 0; i < KEYS; i++) {
      const answer = ingest({
        authorization: `Bearer mp_live_flood_${i}`,
        contentType: 'application/json',
        userAgent: 'flood',
        body: Buffer.from(
          JSON.stringify({
            batch: [
              {
                v: 1,
                type: 'call',
                session_id: `s_${i}`,
                client_name: 'flood',
                tool_name: 'search',
                started_at: new Date(Date.UTC(2026, 11, 2) + i).toISOString(),
                outcome: 'ok',
                args_hash: 'abcd1234',
              },
            ],
          }),
        ),
        receivedMs: Date.UTC(2026, 11, 2) + i,
      });
      if (answer.status !== 202) throw new Error(`ingest ${answer.status}`);
    }
  });
}, 120_000);
afterAll(() => t.close());

it('answers the 500 most recent of 20,000 projects, with the total, in well under a megabyte', async () => {
  const res = await authedFetch(`${t.url}/api/projects`);
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(text.length).toBeLessThan(300_000);
  const body = JSON.parse(text) as {
    projects: { key_prefix: string; last_seen_ms: number; shares_prefix_with: string[] }[];
    total: number;
    warnings: { key_prefix: string; refs: string[]; projects: number; message: string }[];
  };
  expect(body.total).toBe(KEYS);
  expect(body.projects).toHaveLength(500);
  expect(body.projects[0]!.last_seen_ms).toBe(Date.UTC(2026, 11, 2) + KEYS - 1);
  // Every key starts mp_live_floo: one warning, 20 refs named, the count of the rest.
  expect(body.warnings).toHaveLength(1);
  expect(body.warnings[0]).toMatchObject({ key_prefix: 'mp_live_floo', projects: KEYS });
  expect(body.warnings[0]!.refs).toHaveLength(20);
  expect(body.warnings[0]!.message).toMatch(/, and 19980 more\), not by the prefix$/);
  expect(body.projects[0]!.shares_prefix_with.length).toBeLessThanOrEqual(20);
});

it('pages wider with ?limit=, up to 5,000', async () => {
  const wide = (await (await authedFetch(`${t.url}/api/projects?limit=2000`)).json()) as {
    projects: unknown[];
  };
  expect(wide.projects).toHaveLength(2000);
  const capped = (await (await authedFetch(`${t.url}/api/projects?limit=100000`)).json()) as {
    projects: unknown[];
  };
  expect(capped.projects).toHaveLength(5000);
});
