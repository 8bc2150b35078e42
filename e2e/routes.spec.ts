/**
 * Any URL renders the app: a path of two segments (`/session/x`, `/tool/x`) used to load a
 * blank page, because the build referenced `./assets/…` (resolved under `/session/`) and the
 * server answered the missing script with index.html. Assets are absolute now, a missing file
 * under `/assets/` is a 404, and a path the app does not know shows its own "not found" page,
 * sidebar and all.
 */
import { expect, test } from './server.js';
import { guardConsole } from './ui-helpers.js';

test.beforeAll(async ({ devtools }) => {
  expect((await devtools.ingestCapture('ts-sdk-exercise')).status).toBe(202);
});

test('index.html references its assets by absolute URL', async ({ devtools }) => {
  const html = await (await fetch(`${devtools.url}/`)).text();
  const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
    .map((m) => m[1]!)
    .filter((ref) => !ref.startsWith('data:'));
  expect(refs.length).toBeGreaterThan(0);
  for (const ref of refs) expect(ref, ref).toMatch(/^\/assets\//);
});

test('a missing file under /assets/ is a 404, never the page', async ({ devtools }) => {
  for (const path of ['/assets/nope.js', '/assets/index-deadbeef.css', '/session/assets/x.js']) {
    const res = await fetch(`${devtools.url}${path}`);
    expect(res.status, path).toBe(404);
    expect(res.headers.get('content-type') ?? '', path).not.toMatch(/text\/html/);
  }
});

for (const path of ['/session/x', '/tool/x', '/sessions/x/y', '/nowhere']) {
  test(`${path} shows the app's "not found" page with the sidebar`, async ({ page, devtools }) => {
    const console = guardConsole(page);
    await page.goto(`${devtools.url}${path}`);
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page.getByTestId('not-found')).toContainText(path);
    await expect(
      page.getByRole('navigation').getByRole('link', { name: /Overview/ }),
    ).toBeVisible();
    await page
      .getByTestId('not-found')
      .getByRole('link', { name: /overview/i })
      .click();
    await expect(page).toHaveURL(`${devtools.url}/`);
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    console.check();
  });
}

test('a one-segment page still loads on reload', async ({ page, devtools }) => {
  await page.goto(`${devtools.url}/sessions?range=all`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
});
