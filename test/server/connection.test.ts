/**
 * GET /api/connection and GET /api/sessions/:id/ending: the newest payload for the Setup page,
 * and the lost-last-batch rule (docs/metrics.md) — through a real server, real HTTP and a real
 * SQLite file. Time passing is the rows' `received_ms` moved back in the file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { FULL_BATCH, QUIET_MS } from '../../src/store/session-endings.js';
import { capture, startTestServer, type TestServer } from '../helpers/server.js';
import { authedFetch } from '../helpers/token.js';

const call = (session: string, i: number, client = 'claude-code') => ({
  v: 1,
  type: 'call',
  session_id: session,
  client_name: client,
  tool_name: 'search',
  started_at: new Date(Date.now() - 1000 + i).toISOString(),
  duration_ms: 5,
  outcome: 'ok',
  response_bytes: 10,
  is_empty: false,
  args_hash: '44136fa355b3',
});
const startup = (session: string, client = 'claude-code') => ({
  v: 1,
  type: 'startup',
  session_id: session,
  client_name: client,
  tools: [{ name: 'search', schema_bytes: 120 }],
});

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(() => t.close());

/** Moves every stored row `ms` into the past, as if that much time had gone by. */
function age(ms: number): void {
  for (const table of ['calls', 'startups', 'batches'])
    connectionOf(t.store).prepare(`UPDATE ${table} SET received_ms = received_ms - ?`).run(ms);
}

async function post(batch: unknown[], userAgent = 'mcpulse-go'): Promise<void> {
  const res = await t.ingest({ batch }, { headers: { 'user-agent': userAgent } });
  expect(res.status).toBe(202);
  expect(res.headers.get('x-mcpulse-rejected')).toBe('0');
}

describe('GET /api/connection', () => {
  it('is empty before anything arrives, then names the newest payload’s client, session and calls', async () => {
    expect(await t.api('connection')).toEqual({
      latest: null,
      lost_batches: [],
      quiet_ms: QUIET_MS,
      misdirected: null,
    });
    await post([startup('s_aaaaaaaaaaaa', 'cursor')]);
    const first = await t.api('connection');
    expect(first.latest).toMatchObject({
      session_id: 's_aaaaaaaaaaaa',
      client_name: 'cursor',
      calls: 0,
      startups: 1,
    });
    await post([call('s_aaaaaaaaaaaa', 1, 'cursor'), call('s_aaaaaaaaaaaa', 2, 'cursor')]);
    const next = await t.api('connection');
    expect(next.latest).toMatchObject({ session_id: 's_aaaaaaaaaaaa', calls: 2, startups: 1 });
  });

  it('flags a quiet startup-only session and a session whose last request was a full batch', async () => {
    await post([startup('s_000000000001')]); // Go: tool list on a timer flush, calls lost.
    await post([startup('s_000000000002'), call('s_000000000002', 1)]); // ended with a partial flush
    await post(Array.from({ length: FULL_BATCH }, (_, i) => call('s_000000000003', i)));
    // An exit flush of 31: not the size a buffer-full flush sends, so not a sign of loss.
    await post(Array.from({ length: FULL_BATCH + 1 }, (_, i) => call('s_000000000004', i)));
    // TS sends a startup on every initialize: a client that connected, listed and left.
    await post([startup('s_000000000005')], 'node');
    // A replay-style request with many sessions in it says nothing about how each one ended.
    await post(
      Array.from({ length: FULL_BATCH * 2 }, (_, i) => call(`s_00000000010${i % 2}`, i)),
      'mcpulse-devtools import',
    );
    // Not quiet yet: nothing is judged while a session may still be flushing.
    expect((await t.api('connection')).lost_batches).toEqual([]);

    age(QUIET_MS + 1000);
    const { lost_batches } = await t.api('connection');
    const byId = Object.fromEntries(lost_batches.map((e) => [e.session_id, e]));
    expect(Object.keys(byId).sort()).toEqual(['s_000000000001', 's_000000000003']);
    // Both have pages and are listed: a session with no tool calls is still a session.
    expect((await t.api('session', { id: 's_000000000005' })).session.calls).toBe(0);
    expect(byId.s_000000000001).toMatchObject({
      kind: 'startup-only',
      calls: 0,
      startups: 1,
      user_agent: 'mcpulse-go',
    });
    expect(byId.s_000000000003).toMatchObject({
      kind: 'full-last-batch',
      calls: FULL_BATCH,
      last_batch_payloads: FULL_BATCH,
    });
  });
});

describe('GET /api/sessions/:id/ending', () => {
  it('judges one session, and 404s for one never seen', async () => {
    await post([startup('s_00000000000a')], 'mcpulse-go');
    await post([call('s_00000000000b', 1)]);
    age(QUIET_MS + 1000);
    const a = await t.api('sessionEnding', { id: 's_00000000000a' });
    expect(a.ending).toMatchObject({ kind: 'startup-only', user_agent: 'mcpulse-go' });
    const b = await t.api('sessionEnding', { id: 's_00000000000b' });
    expect(b.ending).toBeNull();
    const missing = await authedFetch(`${t.url}/api/sessions/s_ffffffffffff/ending`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'no session s_ffffffffffff' });
  });
});

describe('a session that connected, listed the tools and left', () => {
  it('is a session: listed with no tool calls, counted, with its page — and not "lost"', async () => {
    // The TypeScript SDK's own startup (fixtures/captures), alone: a client that never called.
    const ts = JSON.parse(capture('ts-sdk-exercise')) as { batch: { type: string }[] };
    const only = ts.batch.filter((p) => p.type === 'startup');
    await post(only, 'node');
    age(QUIET_MS + 1000);
    const id = (only[0] as unknown as { session_id: string }).session_id;
    const { sessions, total } = await t.api('sessions');
    expect(total).toBe(1);
    expect(sessions[0]).toMatchObject({ id, calls: 0, first_tool: null, label: null });
    expect((await t.api('projects')).projects[0]).toMatchObject({ calls: 0, sessions: 1 });
    const page = await t.api('session', { id });
    expect(page.session).toMatchObject({ id, calls: 0 });
    expect(page.startups).toHaveLength(1);
    expect(page.calls).toEqual([]);
    expect((await t.api('sessionEnding', { id })).ending).toBeNull();
    expect((await t.api('connection')).lost_batches).toEqual([]);
    // A tool filter never matches a session without calls; the client filter does.
    expect((await t.api('sessions', { tool: 'fast_tool' })).total).toBe(0);
    expect((await t.api('sessions', { client: 'mcpulse-exercise' })).total).toBe(1);
  });
});
