import { defineConfig } from '@playwright/test';
import { availableParallelism } from 'node:os';
import { findChromium } from './e2e/chromium-path.js';

/**
 * Spec files at once (issue 43): one worker per core, each with its own server (the worker's
 * `devtools` fixture, e2e/server.ts) that the files it runs share. A spec file still runs its
 * tests in order on one worker. PLAYWRIGHT_WORKERS overrides it.
 */
const workers = Number(process.env.PLAYWRIGHT_WORKERS) || Math.max(2, availableParallelism());

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  outputDir: 'test-results/e2e',
  use: {
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: findChromium(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
  },
});
