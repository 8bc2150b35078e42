/**
 * Playground: the 23 conformance fixtures pass live, a fixture loads on click, typing updates
 * the canonical form and hash, and a hash from a Python SDK is diagnosed as Python's trap.
 */
import { createHash } from 'node:crypto';
import { expect, test } from './server.js';
import { guardConsole, shootBoth } from './ui-helpers.js';

const hash12 = (text: string): string =>
  createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12);

test('fixtures pass 23/23 and load on click', async ({ page, devtools }) => {
  const console = guardConsole(page);
  await page.goto(`${devtools.url}/playground`);
  await expect(page.getByTestId('fixtures-score')).toHaveText('23/23 pass');
  await expect(page.getByTestId('fixtures').locator('[data-pass="true"]')).toHaveCount(23);

  await page.getByRole('button', { name: /non-ascii is never escaped/ }).click();
  await expect(page.getByTestId('pg-hash')).toHaveText('83fbb23b7e85');
  await expect(page.getByTestId('pg-canonical')).toHaveText(
    '{"clé":"naïve","emoji":"🚀","s":"café"}',
  );
  await shootBoth(page, 'playground');
  console.check();
});

test('typing updates the hash live, and a Python hash is diagnosed as Python', async ({
  page,
  devtools,
}) => {
  const console = guardConsole(page);
  await page.goto(`${devtools.url}/playground`);
  const input = page.getByTestId('pg-input');
  await input.fill('{"b": 2, "a": 1}');
  await expect(page.getByTestId('pg-canonical')).toHaveText('{"a":1,"b":2}');
  await expect(page.getByTestId('pg-hash')).toHaveText(hash12('{"a":1,"b":2}'));

  await input.fill('{"s": "café"}');
  await expect(page.getByTestId('pg-hash')).toHaveText(hash12('{"s":"café"}'));
  // What Python's json.dumps(sort_keys=True, separators=(',', ':')) sends: é escaped.
  await page
    .getByLabel('Hash your SDK sent for these arguments')
    .fill(hash12('{"s":"caf\\u00e9"}'));
  await expect(page.getByTestId('hash-verdict')).toContainText('Python');
  await expect(page.getByTestId('languages').locator('[data-lang="python"]')).toContainText(
    'differs',
  );
  await expect(page.getByTestId('languages').locator('[data-lang="python"] mark')).not.toHaveCount(
    0,
  );

  // Issue 11: the SDKs come first, as their code hashes; the hand-rolled encoders after, labelled.
  await input.fill('{"s": "a\\ud800b"}');
  await expect(page.getByTestId('pg-hash')).toHaveText('8d0d9d697f74');
  const sdks = page.getByTestId('sdks');
  // Issue 20: the SDKs that agree are one card, the hash and text once; the rest expand.
  const agree = sdks.getByTestId('sdks-agree');
  await expect(agree).toContainText('8d0d9d697f74');
  await expect(agree.locator('[data-sdk="ts"]')).toContainText('@mcpulse/sdk 0.1.6');
  await expect(sdks.locator('.pg-lang [data-sdk="go"], .pg-lang[data-sdk="go"]')).toHaveCount(1);
  await expect(sdks.locator('[data-sdk="go"]')).toContainText('831e2ffe20d5');
  await expect(sdks.locator('[data-sdk="ruby"]')).toContainText('JSON.parse refuses');
  await expect(page.getByTestId('languages')).toContainText('If you hash it yourself');
  const sdksBox = (await sdks.boundingBox())!;
  const handRolledBox = (await page.getByTestId('languages').boundingBox())!;
  expect(sdksBox.y).toBeLessThan(handRolledBox.y);
  await input.fill('{"filters": {}}');
  await expect(sdks.locator('[data-sdk="php"]')).toContainText('{"filters":[]}');
  await expect(page.getByTestId('diagnostics')).toContainText('php-array');

  // Not JSON: a clear message, not a crash.
  await input.fill("{'a': 1}");
  await expect(page.getByTestId('pg-error')).toContainText('double quotes');
  // Diagnostics: an integer past 2^53.
  await input.fill('{"id": 9007199254740993}');
  await expect(page.getByTestId('diagnostics')).toContainText('unsafe-integer');
  console.check();
});
