/**
 * Export from the UI: the top bar's menu and the session page's, through the real
 * `GET /api/export`. The JSONL download must be the wire-format payloads that were ingested
 * (unknown fields included) and replay to the same numbers; CSV and markdown are the summary.
 * Last, the overview a short range exports: minute buckets on the chart, its axis and sparklines.
 */
import type { Download, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { expect, test } from './server.js';
import {
  call,
  guardConsole,
  ingestAll,
  projectOf,
  sessionId,
  shootBoth,
  startup,
} from './ui-helpers.js';
import { getRemote } from '../src/api/remote.js';

const KEY = 'mp_live_export_e2e';
const PROJECT = projectOf(KEY);
const OTHER = 'mp_live_xother_e2e';
const REPLAY = 'mp_live_xreplay_e2e';
const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);
const S1 = 's_0000000e0001';
const S2 = 's_0000000e0002';

const first = [
  // Fields the devtools does not know are kept and must come back in the export.
  {
    ...startup(S1, [
      ['search', 120],
      ['fetch', 80],
    ]),
    sdk_version: '9.9.9',
  },
  call({ session: S1, tool: 'search', at: T0, outcome: 'bad_args', hash: 'a1a1a1a1a1a1' }),
  call({ session: S1, tool: 'search', at: T0 + 2_000, hash: 'a2a2a2a2a2a2' }),
  { ...call({ session: S1, tool: 'fetch', at: T0 + 4_000, bytes: 900 }), trace: { span: 7 } },
];
const second = [
  startup(S2, [
    ['search', 120],
    ['fetch', 80],
  ]),
  call({ session: S2, tool: 'fetch', at: T0 + 60_000, outcome: 'tool_error', ms: 800 }),
  call({ session: S2, tool: 'fetch', at: T0 + 65_000, empty: true, hash: 'b2b2b2b2b2b2' }),
];

/** Clicks an export menu item and returns the download with its text. */
async function download(
  page: Page,
  menu: string,
  item: RegExp,
): Promise<{ dl: Download; text: string }> {
  await page.getByTestId(menu).getByRole('button', { name: 'Export' }).click();
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(menu).getByRole('menuitem', { name: item }).click(),
  ]);
  const path = await dl.path();
  return { dl, text: readFileSync(path, 'utf8') };
}

const lines = (text: string): unknown[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);

test.beforeAll(async ({ devtools }) => {
  for (const batch of [first, second]) {
    const res = await devtools.ingest({ batch }, KEY);
    expect(res.status, await res.text()).toBe(202);
  }
  const res = await devtools.ingest(
    { batch: [call({ session: 's_0000000e0003', tool: 'search', at: T0 })] },
    OTHER,
  );
  expect(res.status).toBe(202);
});

test('the top bar exports the filtered view as replayable JSONL, CSV and markdown', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await page.goto(`${devtools.url}/?project=${PROJECT}`);
  await expect(page.getByTestId('card-calls')).toContainText('5');

  // The menu says what it will export and offers the three files.
  await page.getByTestId('export').getByRole('button', { name: 'Export' }).click();
  const menu = page.getByTestId('export').getByRole('menu');
  await expect(menu).toContainText(`project ${PROJECT}`);
  await expect(menu.getByRole('menuitem')).toHaveText([
    /Raw payloads \(JSONL, replayable\)/,
    /Summary \(CSV\)/,
    /Summary \(Markdown\)/,
  ]);
  await shootBoth(page, 'export-menu');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  // JSONL: exactly the payloads of this project, as sent, startups before their calls.
  const jsonl = await download(page, 'export', /Raw payloads/);
  expect(jsonl.dl.suggestedFilename()).toMatch(/^mcpulse-project-.+\.jsonl$/);
  expect(lines(jsonl.text)).toEqual([...first, ...second]);

  // Replayed under another key, the export gives the same numbers.
  const replay = await devtools.ingest({ batch: lines(jsonl.text) }, REPLAY);
  expect(replay.status).toBe(202);
  expect(replay.headers.get('x-mcpulse-rejected')).toBe('0');
  const summary = async (project: string): Promise<unknown> => {
    const s = await getRemote(devtools.url, 'summary', { project }, { token: devtools.token });
    return [s.calls, s.sessions, s.first_call_success, s.outcomes, s.retries];
  };
  expect(await summary(projectOf(REPLAY))).toEqual(await summary(PROJECT));

  // CSV: one row per tool.
  const csv = await download(page, 'export', /Summary \(CSV\)/);
  expect(csv.dl.suggestedFilename()).toMatch(/\.csv$/);
  const rows = csv.text.trim().split(/\r?\n/);
  expect(rows[0]).toMatch(/^tool,registered,dead,schema_bytes,calls,/);
  expect(rows.slice(1).map((r) => r.split(',').slice(0, 5))).toEqual(
    expect.arrayContaining([
      ['fetch', 'true', 'false', '80', '3'],
      ['search', 'true', 'false', '120', '2'],
    ]),
  );

  // Markdown: the report, scoped the same way.
  const md = await download(page, 'export', /Summary \(Markdown\)/);
  expect(md.dl.suggestedFilename()).toMatch(/\.md$/);
  expect(md.text).toMatch(/^# /);
  expect(md.text).toContain('| Calls | 5 in 2 sessions');

  // A tool filter narrows the export: fetch calls only, with their sessions' startups.
  await page.goto(`${devtools.url}/calls?project=${PROJECT}&tool=fetch`);
  await expect(page.getByTestId('calls').locator('tbody tr')).toHaveCount(3);
  const narrowed = await download(page, 'export', /Raw payloads/);
  expect(lines(narrowed.text)).toEqual([first[0], first[3], ...second]);
  console.check();
});

test('the session page exports that session; the menu works from the keyboard', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await page.goto(`${devtools.url}/session?project=${PROJECT}&id=${S2}`);
  await expect(page.getByTestId('session-facts')).toContainText('2');

  const { dl, text } = await download(page, 'session-export', /Raw payloads/);
  expect(dl.suggestedFilename()).toContain(S2);
  expect(lines(text)).toEqual(second);
  await expect(page.getByTestId('session-export').getByRole('menu')).toBeHidden();

  // Keyboard: Enter opens with the first item focused, arrows move, Escape closes.
  const button = page.getByTestId('session-export').getByRole('button', { name: 'Export' });
  await button.focus();
  await page.keyboard.press('Enter');
  const items = page.getByTestId('session-export').getByRole('menuitem');
  await expect(items.first()).toBeFocused();
  await expect(page.getByTestId('session-export').getByRole('menu')).toContainText(`session ${S2}`);
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(items.nth(2)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('session-export').getByRole('menu')).toBeHidden();
  await expect(button).toBeFocused();
  console.check();
});

/** Six sessions over the last 48 minutes: three tools, two clients, retries, slow and empty calls. */
function lastHour(now: number): unknown[] {
  const tools: [string, number][] = [
    ['search_issues', 640],
    ['get_issue', 410],
    ['list_projects', 220],
    ['archive_project', 494],
  ];
  const out: unknown[] = [];
  for (let s = 0; s < 6; s++) {
    const session = sessionId(0x900 + s);
    const client = s % 2 ? 'cursor-vscode' : 'claude-ai';
    out.push(startup(session, tools, client));
    const start = now - (48 - s * 8) * 60_000;
    for (let i = 0; i < 14; i++) {
      // A bad_args call is retried by the next one, same tool, reworded arguments.
      const retry = i % 5 === 1;
      const tool = tools[((i % 5 === 2 ? i - 1 : i) + s) % 3]![0];
      out.push(
        call({
          session,
          client,
          tool,
          at: start + i * 25_000 + (retry ? 12_000 : 0),
          ms: 8 + ((i * 37 + s * 11) % 90) + (i % 6 === 0 ? 420 : 0),
          outcome: retry ? 'bad_args' : i % 9 === 4 ? 'tool_error' : 'ok',
          empty: i % 7 === 3,
          hash: ((i * 5 + s) % 16).toString(16).repeat(12),
          bytes: 200 + ((i * 131) % 1800),
        }),
      );
    }
  }
  return out;
}

test('a short range reads per minute: the chart, its axis, tooltip and the sparklines', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  const key = 'mp_live_minutes_e2e';
  await ingestAll(devtools, lastHour(Date.now()), key);
  await page.goto(`${devtools.url}/?project=${projectOf(key)}&range=1h`);
  await expect(page.getByTestId('card-calls')).toContainText('84');
  await expect(page.getByTestId('series-bucket')).toHaveText('per minute');
  const chart = page.getByTestId('calls-over-time');
  await expect(chart).toHaveAttribute('data-bucket-ms', '60000');

  // Axis ticks are clock times a few minutes apart, all within the hour shown.
  const ticks = chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
  await expect.poll(() => ticks.count()).toBeGreaterThan(3);
  const labels = await ticks.allTextContents();
  for (const l of labels) expect(l).toMatch(/^(\d\d:\d\d|[A-Z][a-z]{2} \d{1,2})$/);
  expect(new Set(labels).size).toBe(labels.length);

  // The tooltip names the whole minute.
  await chart.hover();
  const heading = chart.getByTestId('chart-tooltip').locator('.chart-tip-head');
  await expect(heading).toHaveText(/\d\d:\d\d–\d\d:\d\d$/);
  const [from, to] = (await heading.innerText())
    .split(', ')
    .at(-1)!
    .split('–')
    .map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3)));
  expect((to! - from! + 1440) % 1440).toBe(1);

  // Sparklines follow the same minutes: one point per bucket, ~48 of them.
  const d = (await page.getByTestId('card-calls').locator('.spark-line').getAttribute('d')) ?? '';
  expect(d.match(/[ML]/g)?.length ?? 0).toBeGreaterThanOrEqual(45);
  await page.mouse.move(0, 0);
  await shootBoth(page, 'overview-minutes');
  console.check();
});
