import { existsSync } from 'node:fs';

/**
 * Finds a Chromium to drive: `$CHROMIUM_PATH`, then Debian's, then Chrome, then Playwright's
 * own download (undefined lets Playwright look for it).
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [
    env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ].filter((p): p is string => Boolean(p));
  return candidates.find((p) => existsSync(p));
}
