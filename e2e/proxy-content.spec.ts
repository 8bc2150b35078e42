/**
 * Proxy content in the dashboard, against a real server with a session posted over HTTP as the
 * proxy posts it: the message log on the session page (filters, search, a pair side by side),
 * a retry chain told attempt by attempt (the error that preceded the retry, the argument diff,
 * the playground holding both texts), call details with the answer, and failures grouped by
 * error text on the tool page. Then axe on these views and screenshots in both themes.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import {
  ARGS_1,
  ARGS_2,
  CONTENT_KEY,
  DATE_ERROR,
  PROXIED_SESSION,
  RATE_ERROR,
  READ_ERROR,
  SDK_SESSION,
  seedProxiedSession,
} from './content-seed.js';
import { appendToLongSession, LONG_SESSION, seedLongSession } from './content-seed-long.js';
import { CLI_WORDS, expect, test } from './server.js';
import { guardConsole, projectOf } from './ui-helpers.js';

const project = projectOf(CONTENT_KEY);
/** The most messages the log holds in the browser (MESSAGE_LOG_CAP, renderer/src/api/content.ts). */
const MESSAGE_LOG_CAP = 20_000;
/** Artifacts; the reviewed ones are copied to docs/design/content/. */
const SHOTS = 'test-results/screenshots/content';
let seeded = false;

test.beforeEach(async ({ devtools }) => {
  if (seeded) return;
  await seedProxiedSession(devtools);
  seeded = true;
});

test('a proxied session: filter the message log, open a pair, read a retry chain', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await page.goto(`${devtools.url}/session?id=${PROXIED_SESSION}&project=${project}`);

  // Who talked: the client's and the server's initialize facts, and the request left open.
  const peers = page.getByTestId('session-proxy');
  await expect(peers.getByTestId('proxy-client')).toContainText('e2e-client 1.2.0');
  await expect(peers.getByTestId('proxy-client')).toContainText('sampling');
  await expect(peers.getByTestId('proxy-server')).toContainText('fs-server 0.3.0');
  await expect(peers.getByTestId('proxy-server')).toContainText('Paths must be absolute.');
  await expect(page.getByTestId('session-unanswered')).toContainText('1');
  await expect(page.getByTestId('unanswered')).toContainText(
    'unanswered: 1 — the client closed before the server answered',
  );

  // Every message, tool calls or not: 10 exchanges, 2 notifications, the unanswered request.
  const log = page.getByTestId('message-log');
  await log.scrollIntoViewIfNeeded();
  await expect(page.getByTestId('ml-count')).toHaveText('23 messages');
  const rows = log.locator('.ml-row');
  await expect(rows.filter({ hasText: 'resources/read' })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'prompts/get' })).toHaveCount(2);
  await expect(rows.filter({ hasText: 'notifications/message' })).toHaveCount(1);

  await page.getByTestId('ml-method').selectOption('tools/call');
  await expect(page.getByTestId('ml-count')).toHaveText('13 of 23');
  await page.getByTestId('ml-kind').selectOption('request');
  await expect(page.getByTestId('ml-count')).toHaveText('7 of 23');
  await page.getByTestId('ml-kind').selectOption('');
  await page.getByTestId('ml-search').fill('ENOENT');
  await expect(page.getByTestId('ml-count')).toHaveText('1 of 23');
  await rows.first().click();
  const pair = page.getByTestId('ml-pair');
  await expect(pair.getByTestId('ml-side-request')).toContainText('"path": "a.txt"');
  await expect(pair.getByTestId('ml-side-answer')).toContainText('ENOENT: no such file');
  await expect(pair.getByTestId('ml-timing')).toHaveText('answered in 12 ms');
  // The keyboard reaches the rows and moves between them.
  await page.getByTestId('ml-search').fill('');
  await page.getByTestId('ml-method').selectOption('');
  // Every message listed again before the keyboard starts from the first row.
  await expect(page.getByTestId('ml-count')).toHaveText('23 messages');
  await expect(rows.first()).toHaveAttribute('data-method', 'initialize');
  await rows.first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(log.locator('.ml-row:focus')).toHaveAttribute(
    'data-method',
    'notifications/initialized',
  );
  await expect(log.locator('.ml-row:focus')).toHaveAttribute('data-kind', 'notification');

  // The retry chain: the error before the retry, and what the model changed.
  const story = page.getByTestId('chain-story');
  await expect(story.getByTestId('chain-error')).toHaveText(READ_ERROR);
  await expect(story.getByTestId('chain-diff')).toContainText('path: "a.txt" → "/abs/a.txt"');
  await story.getByTestId('chain-playground').click();
  await expect(page).toHaveURL(/\/playground\?mode=compare/);
  await expect(page.getByTestId('cmp-input-A')).toHaveValue(ARGS_1);
  await expect(page.getByTestId('cmp-input-B')).toHaveValue(ARGS_2);
  await expect(page.getByTestId('cmp-hash-A').locator('[data-match]')).toHaveAttribute(
    'data-match',
    'yes',
  );
  await expect(page.getByTestId('cmp-hash-B').locator('[data-match]')).toHaveAttribute(
    'data-match',
    'yes',
  );
  await expect(page.getByTestId('cmp-paths')).toContainText('/abs/a.txt');
  await page.goBack();

  // Call details: the failing attempt's arguments and error text.
  const failed = page.getByTestId('session-calls').locator('tbody tr').first();
  await failed.click();
  const details = page.getByTestId('call-details');
  await expect(details.getByTestId('call-arguments')).toContainText('"path": "a.txt"');
  await expect(details.getByTestId('call-error-text')).toHaveText(READ_ERROR);
  // …and from there, the request and its answer opened in the message log.
  await details.getByTestId('call-in-log').click();
  await expect(page).toHaveURL(/[?&]msg=\d+/);
  await expect(page.getByTestId('ml-count')).toHaveText('23 messages');
  await expect(page.getByTestId('ml-pair').getByTestId('ml-side-request')).toContainText(
    '"path": "a.txt"',
  );
  await expect(page.getByTestId('ml-pair').getByTestId('ml-side-answer')).toContainText('ENOENT');

  // An SDK session's call: one line saying how to see content.
  await page.goto(`${devtools.url}/session?id=${SDK_SESSION}&project=${project}`);
  await page.getByTestId('session-calls').locator('tbody tr').first().click();
  await expect(page.getByTestId('call-no-content')).toContainText(`${CLI_WORDS.join(' ')} proxy`);
  await expect(page.getByTestId('message-log')).toHaveCount(0);
  console.check();
});

test('a tool page groups failing calls by error text', async ({ page, devtools }) => {
  const console = guardConsole(page);
  await page.goto(`${devtools.url}/tool?name=search_issues&project=${project}`);
  const causes = page.getByTestId('cause');
  await expect(causes).toHaveCount(2);
  await expect(causes.nth(0)).toContainText(DATE_ERROR);
  await expect(causes.nth(0)).toContainText('3×');
  await expect(causes.nth(0)).toContainText('1 first call');
  await expect(causes.nth(1)).toContainText(RATE_ERROR);
  await expect(causes.nth(1)).toContainText('1×');
  await causes.nth(0).getByTestId('cause-example').click();
  await expect(page).toHaveURL(new RegExp(`/session\\?.*id=${PROXIED_SESSION}`));
  await expect(page.getByTestId('call-details').getByTestId('call-error-text')).toHaveText(
    DATE_ERROR,
  );
  console.check();
});

test('a long session: 5,000 messages read page by page, only the rows in view in the DOM', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await seedLongSession(devtools, 5_000);
  const started = Date.now();
  await page.goto(`${devtools.url}/session?id=${LONG_SESSION}&project=${project}`);
  await expect(page.getByTestId('ml-count')).toHaveText('5,000 messages');
  const loadMs = Date.now() - started;
  const rows = page.getByTestId('message-rows');
  expect(await rows.locator('.ml-row').count()).toBeLessThan(60);
  // The last message is reachable by scrolling; the first is then out of the DOM.
  await rows.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(rows.locator('[data-seq="4999"]')).toBeVisible();
  await expect(rows.locator('[data-seq="0"]')).toHaveCount(0);
  // Filtering 5,000 bodies answers at typing speed.
  const t = Date.now();
  await page.getByTestId('ml-search').fill('"id":2500,');
  await expect(page.getByTestId('ml-count')).toHaveText('2 of 5,000');
  const filterMs = Date.now() - t;
  // A running session: new messages (and the call that comes with them) appear without a reload.
  await page.getByTestId('ml-search').fill('');
  await appendToLongSession(devtools, 5_000, 4);
  await expect(page.getByTestId('ml-count')).toHaveText('5,004 messages');
  await rows.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(rows.locator('[data-seq="5003"]')).toBeVisible();
  test.info().annotations.push({
    type: 'figures',
    description: `5,000 messages: page to log ${loadMs} ms, search ${filterMs} ms`,
  });
  process.stdout.write(`long session: load ${loadMs} ms, search ${filterMs} ms\n`);
  console.check();
});

test('past the log’s cap, filters run on the server over the whole session', async ({
  page,
  devtools,
}) => {
  test.setTimeout(120_000);
  const console = guardConsole(page);
  const session = 's_0000000c0a81';
  await seedLongSession(devtools, MESSAGE_LOG_CAP + 100, session);
  await page.goto(`${devtools.url}/session?id=${session}&project=${project}`);
  await expect(page.getByTestId('message-log')).toContainText(
    'Showing the first 20,000 of 20,100 messages',
    { timeout: 60_000 },
  );
  // Message 20,081 (id 10,041) is past what the browser holds; the server finds it.
  await page.getByTestId('ml-search').fill('"id":10041,');
  await expect(page.getByTestId('ml-count')).toHaveText('2 of 20,100');
  await expect(page.getByTestId('message-log')).toContainText('Filtered on the server');
  const rows = page.getByTestId('message-rows').locator('.ml-row');
  await rows.first().click();
  await expect(page.getByTestId('ml-timing')).toHaveText('answered in 100 ms');
  console.check();
});

/** The views this spec is about, by test id. */
const CONTENT_VIEWS = [
  'session-proxy',
  'message-log',
  'ml-pair',
  'chain-story',
  'call-details',
  'tool-causes',
  'proxy-content-note',
];

/**
 * The content views, opened the way a user reads them, and the parts shot for docs (by test
 * id; a part inside a panel is shot with its panel).
 */
const views: [string, (page: Page, url: string) => Promise<void>, string[]][] = [
  [
    'session',
    async (page, url) => {
      await page.goto(`${url}/session?id=${PROXIED_SESSION}&project=${project}`);
      await page.getByTestId('ml-method').selectOption('tools/call');
      await page.getByTestId('message-log').locator('.ml-row').nth(1).click();
      await expect(page.getByTestId('ml-pair')).toBeVisible();
      await expect(page.getByTestId('chain-story')).toBeVisible();
    },
    ['session-proxy', 'message-log', 'chain-story'],
  ],
  [
    'details',
    async (page, url) => {
      await page.goto(`${url}/session?id=${PROXIED_SESSION}&project=${project}`);
      await page.getByTestId('session-calls').locator('tbody tr').first().click();
      await expect(page.getByTestId('call-error-text')).toBeVisible();
    },
    ['call-details'],
  ],
  [
    'tool',
    async (page, url) => {
      await page.goto(`${url}/tool?name=search_issues&project=${project}`);
      await expect(page.getByTestId('cause').first()).toBeVisible();
    },
    ['tool-causes'],
  ],
  [
    'setup',
    async (page, url) => {
      await page.goto(`${url}/setup`);
      await expect(page.getByTestId('proxy-content-note')).toBeVisible();
    },
    ['proxy-setup'],
  ],
];

test('the content views pass axe in both themes, fit 390 px, and are shot for docs', async ({
  page,
  devtools,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const found: string[] = [];
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const [name, open, parts] of views) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await open(page, devtools.url);
        await page.waitForTimeout(300);
        // None of the content views sticks out of the window or scrolls sideways itself. (The
        // session page's head row is the layout's, outside these views.)
        const wide = await page.evaluate((ids) => {
          const edge = document.documentElement.clientWidth;
          const out: string[] = [];
          for (const id of ids)
            for (const el of document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)) {
              const r = el.getBoundingClientRect();
              if (r.right > edge + 1 || el.scrollWidth > el.clientWidth + 1)
                out.push(
                  `${id} (right ${Math.round(r.right)} of ${edge}, scroll ${el.scrollWidth})`,
                );
            }
          return out.length ? out.join(', ') : null;
        }, CONTENT_VIEWS);
        if (wide) found.push(`${name} ${width} ${colorScheme}: too wide: ${wide}`);
        {
          const result = await new AxeBuilder({ page })
            .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
            .analyze();
          for (const v of result.violations)
            found.push(
              `${name} ${width} ${colorScheme}: ${v.id} ×${v.nodes.length}: ${v.nodes
                .slice(0, 3)
                .map((n) => n.target.join(' '))
                .join(' | ')}`,
            );
        }
        // A tall window for the shots, so a view is never cut by the scrolling main area.
        await page.setViewportSize({ width, height: 2400 });
        for (const part of parts) {
          const el = page.getByTestId(part).first();
          const panel = el.locator('xpath=ancestor-or-self::section[contains(@class,"panel")][1]');
          const target = (await panel.count()) ? panel : el;
          await target.scrollIntoViewIfNeeded();
          await target.screenshot({ path: `${SHOTS}/${part}-${width}-${colorScheme}.png` });
        }
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      }
    }
  }
  expect(found, found.join('\n')).toEqual([]);
});
