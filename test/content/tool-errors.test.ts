/**
 * Causes: a tool's failing calls grouped by error text (GET /api/tools/:name/errors) and the
 * first-call-error insight (GET /api/insights), over real HTTP, a real server and SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { BASE_MS, postContent, proxiedSession, type ScriptedCall } from './helpers.js';

const DATE_ERROR = 'Invalid date format: use YYYY-MM-DD';
let t: TestServer;

/** Session i starts i minutes after BASE_MS. */
const at = (session: number, ms: number) => session * 60_000 + ms;

beforeAll(async () => {
  t = await startTestServer();
  // Nine proxied sessions: seven start with a bad date and retry, two get it right at once.
  for (let i = 0; i < 9; i++) {
    const calls: ScriptedCall[] =
      i < 7
        ? [
            {
              tool: 'search_issues',
              args: { since: '02/12/2026' },
              isError: true,
              text: DATE_ERROR,
              t: at(i, 0),
            },
            { tool: 'search_issues', args: { since: '2026-12-02' }, text: 'found', t: at(i, 1000) },
          ]
        : [{ tool: 'search_issues', args: { since: '2026-12-02' }, text: 'found', t: at(i, 0) }];
    // Two sessions also hit a JSON-RPC error later on, not on a first call.
    if (i === 1 || i === 8)
      calls.push({
        tool: 'search_issues',
        args: {},
        rpcError: { code: -32602, message: 'since: Required' },
        t: at(i, 5000),
      });
    const s = proxiedSession(`s_proxied_${i}`, calls);
    expect((await t.ingest(s.ingest)).status).toBe(202);
    expect((await postContent(t.url, s.content)).status).toBe(202);
  }
  // An SDK's session: crashed calls with no content at all.
  const sdk = proxiedSession('s_sdk', [
    { tool: 'search_issues', args: {}, t: at(20, 0) },
    { tool: 'search_issues', args: {}, t: at(20, 1000) },
  ]).ingest.batch.map((c) => ({ ...c, outcome: 'crashed' as const }));
  expect((await t.ingest({ batch: sdk })).status).toBe(202);
});
afterAll(() => t.close());

describe('GET /api/tools/:name/errors', () => {
  it('groups failing calls by error text with counts, first calls, outcomes, times and an example', async () => {
    const { groups, failing_calls, capped } = await t.api('toolErrors', { name: 'search_issues' });
    expect(failing_calls).toBe(11);
    expect(capped).toBe(false);
    // Most calls first; equal counts, the most recently seen first.
    expect(groups.map((g) => [g.message, g.count, g.first_calls, g.from_content])).toEqual([
      [DATE_ERROR, 7, 7, true],
      ['crashed (no content: the SDK sends none)', 2, 1, false],
      ['since: Required', 2, 0, true],
    ]);
    const [date, sdk, rpc] = groups;
    expect(date!.outcomes).toEqual({ tool_error: 7 });
    expect(rpc!.outcomes).toEqual({ bad_args: 2 });
    expect(sdk!.outcomes).toEqual({ crashed: 2 });
    expect(date!.first_at).toBe(new Date(BASE_MS).toISOString());
    expect(date!.last_at).toBe(new Date(BASE_MS + at(6, 0)).toISOString());
    // The example is the latest call of the group, and it opens with that text.
    expect(date!.example_session_id).toBe('s_proxied_6');
    const example = await t.api('call', { id: date!.example_call_id });
    expect(example.session_id).toBe('s_proxied_6');
    expect(example.content!.error).toBe(DATE_ERROR);
  });

  it('respects the time range and the other filters', async () => {
    const from = new Date(BASE_MS + at(3, 0)).toISOString();
    const to = new Date(BASE_MS + at(9, 0)).toISOString();
    const { groups } = await t.api('toolErrors', { name: 'search_issues', from, to });
    expect(groups.map((g) => [g.message, g.count])).toEqual([
      [DATE_ERROR, 4],
      ['since: Required', 1],
    ]);
    const one = await t.api('toolErrors', { name: 'search_issues', session: 's_sdk' });
    expect(one.groups.map((g) => g.message)).toEqual(['crashed (no content: the SDK sends none)']);
    const none = await t.api('toolErrors', { name: 'never_called' });
    expect(none).toMatchObject({ failing_calls: 0, groups: [] });
  });

  it('pages groups with limit and says what is left', async () => {
    const page = await t.api('toolErrors', { name: 'search_issues', limit: 1 });
    expect(page.groups).toHaveLength(1);
    expect(page.more).toEqual({ groups: 2, calls: 4 });
  });
});

describe('the first-call-error insight', () => {
  it('names the most common first-call error of the tool, with its share', async () => {
    const { insights } = await t.api('insights');
    const insight = insights.find((i) => i.kind === 'first_call_error');
    // Ten sessions called search_issues; seven of their first calls failed with the date error.
    expect(insight).toMatchObject({
      id: 'first_call_error:search_issues',
      severity: 'high',
      tool: 'search_issues',
      calls: 10,
      size: 7,
      value: 0.7,
      message: `search_issues: 7 of 10 first calls failed with '${DATE_ERROR}'`,
    });
  });

  it('follows the filters: a range without those first calls has no such insight', async () => {
    const from = new Date(BASE_MS + at(7, 0)).toISOString();
    const { insights } = await t.api('insights', { from });
    expect(insights.some((i) => i.kind === 'first_call_error')).toBe(false);
  });
});
