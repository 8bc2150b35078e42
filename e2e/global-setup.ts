import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { findChromium } from './chromium-path.js';

/** Fails the run with one line when there is no browser to drive. */
export default function globalSetup(): void {
  if (findChromium()) return;
  try {
    if (existsSync(chromium.executablePath())) return;
  } catch {
    // fall through to the message
  }
  throw new Error(
    'no Chromium found: apt-get install chromium (or npx playwright install chromium), or set CHROMIUM_PATH',
  );
}
