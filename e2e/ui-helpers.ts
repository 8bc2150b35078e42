/**
 * Helpers for the dashboard specs: a console guard (any console error or CSP violation fails
 * the test), screenshots in both colour schemes, and scripted traffic for the ingest endpoint.
 */
import { expect, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { DevtoolsServer } from './server.js';

/** Collects console errors and page errors; call `check()` at the end of the test. */
export function guardConsole(page: Page, { allow = [] as RegExp[] } = {}): { check: () => void } {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !allow.some((r) => r.test(m.text())))
      problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return { check: () => expect(problems, problems.join('\n')).toEqual([]) };
}

/** Saves the page in light and dark under test-results/screenshots/ (artifacts, not committed). */
export async function shootBoth(page: Page, name: string): Promise<void> {
  mkdirSync('test-results/screenshots', { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // Let charts and transitions settle after the scheme flips.
    await page.waitForTimeout(150);
    await page.screenshot({ path: `test-results/screenshots/${name}-${colorScheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The project filter value for a key: the devtools name projects by the key's first 12 characters. */
/** A key's project ref: the first 12 hex of its SHA-256 (what `?project=` takes). */
export const projectOf = (key: string): string =>
  createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 12);

export interface CallSpec {
  session: string;
  tool: string;
  at: number;
  ms?: number;
  outcome?: 'ok' | 'bad_args' | 'tool_error' | 'crashed';
  empty?: boolean;
  hash?: string;
  bytes?: number;
  client?: string;
}

export function call(c: CallSpec): Record<string, unknown> {
  return {
    v: 1,
    type: 'call',
    session_id: c.session,
    client_name: c.client ?? 'e2e-client',
    tool_name: c.tool,
    started_at: new Date(c.at).toISOString(),
    duration_ms: c.ms ?? 10,
    outcome: c.outcome ?? 'ok',
    response_bytes: c.bytes ?? 100,
    is_empty: c.empty ?? false,
    args_hash: c.hash ?? 'aaaaaaaaaaaa',
  };
}

export function startup(
  session: string,
  tools: [string, number][],
  client = 'e2e-client',
): Record<string, unknown> {
  return {
    v: 1,
    type: 'startup',
    session_id: session,
    client_name: client,
    tools: tools.map(([name, schema_bytes]) => ({ name, schema_bytes })),
  };
}

/** Posts payloads in batches of at most 500 (the wire cap); fails the test on a non-202. */
export async function ingestAll(
  devtools: DevtoolsServer,
  payloads: unknown[],
  key: string,
): Promise<void> {
  for (let i = 0; i < payloads.length; i += 500) {
    const res = await devtools.ingest({ batch: payloads.slice(i, i + 500) }, key);
    expect(res.status, await res.text()).toBe(202);
  }
}

/** `s_` + 12 hex, as SDKs make session ids. */
export const sessionId = (n: number): string => `s_${n.toString(16).padStart(12, '0')}`;
