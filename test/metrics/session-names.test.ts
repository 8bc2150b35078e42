/**
 * What names a session and what a retry chain can show changing, over a real server: the
 * sessions list carries each session's first tool and an SDK's label (from an extra field),
 * and every call view carries the extra fields its SDK sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../../src/api/handlers.js';
import { SESSION_LABEL_MAX } from '../../src/store/metrics/queries/session-names.js';
import { call, startup } from './helpers.js';
import { startHarness, type Harness } from './server.js';

type NamedSession = Api['sessions']['sessions'][number];

let h: Harness;
const LONG = 'x'.repeat(500);

beforeAll(async () => {
  h = await startHarness();
  const items = [
    // A: the label arrives on the startup (newer SDKs put their extras there).
    startup([['search', 100]], { session_id: 's_a00000000001', client_name: 'claude-code' }),
    { ...startup([], { session_id: 's_a00000000001' }), session_label: '  triage\na  login bug ' },
    call({ session_id: 's_a00000000001', tool: 'search', t: 0 }),
    // B: no label anywhere; its first call by start time is `fetch`, though sent second.
    call({ session_id: 's_b00000000002', tool: 'search', t: 5_000 }),
    call({ session_id: 's_b00000000002', tool: 'fetch', t: 1_000 }),
    // C: the label rides on the first call, beside other extras; an attempt then changes them.
    {
      ...call({ session_id: 's_c00000000003', tool: 'lookup', t: 0, hash: '111111111111' }),
      label: LONG,
      attempt: 1,
      model: 'm-1',
    },
    {
      ...call({ session_id: 's_c00000000003', tool: 'lookup', t: 800, hash: '222222222222' }),
      attempt: 2,
      model: 'm-1',
    },
    // D: labels that are not text, or blank, are no label.
    { ...call({ session_id: 's_d00000000004', tool: 'ping', t: 0 }), label: 42 },
    { ...startup([], { session_id: 's_d00000000004' }), session_name: '   ' },
  ];
  expect(await h.ingest({ batch: items })).toBe(202);
});

afterAll(() => h.close());

const sessionsById = async (): Promise<Map<string, NamedSession>> => {
  const page = await h.get('sessions', { limit: 10 });
  return new Map(page.sessions.map((s) => [s.id, s]));
};

describe('session names', () => {
  it('titles a session by an SDK label from a startup extra, cleaned to one line', async () => {
    const a = (await sessionsById()).get('s_a00000000001')!;
    expect(a.label).toBe('triage a login bug');
    expect(a.first_tool).toBe('search');
  });

  it('falls back to the first tool by start time when no label was sent', async () => {
    const b = (await sessionsById()).get('s_b00000000002')!;
    expect(b.label).toBeNull();
    expect(b.first_tool).toBe('fetch');
  });

  it('reads a label from the first call and caps its length', async () => {
    const c = (await sessionsById()).get('s_c00000000003')!;
    expect(c.label).toHaveLength(SESSION_LABEL_MAX);
    expect(c.label!.endsWith('…')).toBe(true);
    expect(c.first_tool).toBe('lookup');
  });

  it('ignores labels that are not text or are blank', async () => {
    const d = (await sessionsById()).get('s_d00000000004')!;
    expect(d.label).toBeNull();
    expect(d.first_tool).toBe('ping');
  });
});

describe('searching by name', () => {
  const found = async (q: string): Promise<string[]> =>
    (await h.get('sessions', { q })).sessions.map((s) => s.id).sort();

  it('finds a session by its first tool and by a label on its startup', async () => {
    expect(await found('FETCH')).toEqual(['s_b00000000002']);
    expect(await found('login bug')).toEqual(['s_a00000000001']);
    // Still by id, as before.
    expect(await found('s_c000')).toEqual(['s_c00000000003']);
  });
});

describe('extra fields on call views', () => {
  it('the session detail carries each call’s extras, and null for a call with none', async () => {
    const c = await h.get('session', { id: 's_c00000000003' });
    expect(c.calls.map((x) => x.extra)).toEqual([
      { label: LONG, attempt: 1, model: 'm-1' },
      { attempt: 2, model: 'm-1' },
    ]);
    const b = await h.get('session', { id: 's_b00000000002' });
    expect(b.calls.map((x) => x.extra)).toEqual([null, null]);
  });

  it('the calls list carries them too', async () => {
    const page = await h.get('metricsCalls', { session: 's_c00000000003' });
    expect(page.calls.map((x) => x.extra?.attempt)).toEqual([2, 1]);
  });
});

describe('session names on the calls list', () => {
  it('each call carries what names its session, so a list shows names, not ids', async () => {
    const page = await h.get('metricsCalls', { limit: 100 });
    const byId = new Map(page.calls.map((c) => [c.session_id, c.session_name]));
    expect(byId.get('s_a00000000001')).toMatchObject({
      label: 'triage a login bug',
      first_tool: 'search',
    });
    // No label: the first tool by start time and that call's start, as the sessions list has.
    const sessions = await sessionsById();
    expect(byId.get('s_b00000000002')).toEqual({
      label: null,
      first_tool: 'fetch',
      first_seen_ms: sessions.get('s_b00000000002')!.first_seen_ms,
    });
    // Every call of one session names it the same way.
    const ofC = page.calls.filter((c) => c.session_id === 's_c00000000003');
    expect(ofC).toHaveLength(2);
    expect(ofC[0]!.session_name).toEqual(ofC[1]!.session_name);
  });
});
