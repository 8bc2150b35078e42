/**
 * The ingest spool's backlog, seen from the dashboard (src/ingest/spool.ts). A previous run is
 * left with requests acknowledged but not yet applied — written into the database file with the
 * store's own spool writer, exactly as the server spools a flush — and the real server applies
 * them after it starts. Nothing of our API is mocked: the page learns about the backlog from
 * `GET /api/spool` and the stream's `spool` events.
 */
import Database from 'better-sqlite3';
import { fingerprintKey } from '../src/ingest/key.js';
import { openStore } from '../src/store/index.js';
import { expect, openLink, startDevtools, test } from './server.js';
import { call, guardConsole, projectOf, sessionId, shootBoth } from './ui-helpers.js';
import { connectionOf } from '../src/store/connection.js';
import { getRemote } from '../src/api/remote.js';

/** Leaves `requests` spooled requests of `perRequest` calls each in a fresh database file. */
function seedSpool(
  dbPath: string,
  { key, requests, perRequest, sessions }: SpoolSeed,
  extraSql?: string,
): void {
  const store = openStore(dbPath);
  try {
    const fp = fingerprintKey(key);
    // The last hour, so every range preset shows them; every tenth call is a tool error.
    const t0 = Date.now() - 3_600_000;
    const entries = [];
    for (let r = 0, n = 0; r < requests; r++) {
      const batch = [];
      for (let i = 0; i < perRequest; i++, n++) {
        batch.push(
          call({
            session: sessionId(n % sessions),
            tool: `spooled_${n % 7}`,
            at: t0 + Math.floor((n * 3_000_000) / (requests * perRequest)),
            ms: 5 + (n % 40),
            outcome: n % 10 === 9 ? 'tool_error' : 'ok',
            hash: (n % 997).toString(16).padStart(12, '0'),
          }),
        );
      }
      entries.push({
        receivedMs: Date.now(),
        keySha256: fp.sha256,
        keyPrefix: fp.prefix,
        userAgent: 'mcpulse-e2e/spool',
        payloads: batch.length,
        body: Buffer.from(JSON.stringify({ batch }), 'utf8'),
      });
    }
    store.spool.add(entries);
    expect(store.spool.backlog().payloads).toBe(requests * perRequest);
    if (extraSql) connectionOf(store).exec(extraSql);
  } finally {
    store.close();
  }
}

interface SpoolSeed {
  key: string;
  requests: number;
  perRequest: number;
  sessions: number;
}

/** What the page showed while a backlog was applied, recorded by the page itself as it rendered. */
interface Shown {
  /** Every count the sidebar's note showed, in order, with when (performance.now()). */
  counts: [count: number, atMs: number][];
  /** The first note and its title, and the first "figures partial" text. */
  pendingText: string | null;
  pendingTitle: string | null;
  partialText: string | null;
  /** Renders where the sidebar showed a count and the figures' note did not say the same one. */
  disagreements: string[];
}

/**
 * Records, from the first render on, what the spool's notes say. A backlog can be applied in a
 * couple of seconds on a fast machine, about as long as the page takes to load while the loop
 * applies it, so what was shown is read from this record rather than from the live page.
 */
function recordSpoolNotes(): void {
  const shown: Shown = {
    counts: [],
    pendingText: null,
    pendingTitle: null,
    partialText: null,
    disagreements: [],
  };
  (window as unknown as { spoolShown: Shown }).spoolShown = shown;
  const countIn = (el: Element | null | undefined): number =>
    el?.textContent ? Number(el.textContent.replace(/,/g, '')) : 0;
  new MutationObserver(() => {
    const pending = document.querySelector('[data-testid="spool-pending"]');
    const partial = document.querySelector('[data-testid="figures-partial"]');
    const n = countIn(pending?.querySelector('[data-testid="spool-pending-count"]'));
    if (shown.counts[shown.counts.length - 1]?.[0] !== n) shown.counts.push([n, performance.now()]);
    if (pending && shown.pendingText === null) {
      shown.pendingText = pending.querySelector('.spool-text')?.textContent ?? '';
      shown.pendingTitle = pending.getAttribute('title');
    }
    if (partial && shown.partialText === null) shown.partialText = partial.textContent;
    // Both notes read the same spool state, rendered in one commit: they never disagree.
    if (n > 0 && countIn(partial?.querySelector('strong')) !== n)
      shown.disagreements.push(`sidebar ${n}, figures: ${partial?.textContent ?? 'no note'}`);
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

test('a backlog left by a previous run is shown while it is applied, then is in every figure', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // 600,000 calls in 1,200 requests of 500 (the wire's cap), over 4 sessions: several seconds
  // of applying on a fast machine (the page loads in about two), far more on a loaded one.
  const seed: SpoolSeed = {
    key: 'mp_live_spool_backlog',
    requests: 1_200,
    perRequest: 500,
    sessions: 4,
  };
  const total = seed.requests * seed.perRequest;
  const { server, stop } = await startDevtools({ seed: (db) => seedSpool(db, seed) });
  try {
    // As a user would: the printed link first, then the pages.
    await openLink(page, server);
    // Applying publishes every call on the stream; a reader that falls 4 MiB behind is cut off
    // by the server and its EventSource reconnects (src/server/sse.ts) — the page carries on.
    const console = guardConsole(page, { allow: [/ERR_INCOMPLETE_CHUNKED_ENCODING/] });
    await page.addInitScript(recordSpoolNotes);
    await page.goto(`${server.url}/?project=${projectOf(seed.key)}`);
    const shownSoFar = (): Promise<Shown> =>
      page.evaluate(() => (window as unknown as { spoolShown: Shown }).spoolShown);

    // The shell said calls are being applied, how many, and what that means for the SDKs…
    await expect
      .poll(async () => (await shownSoFar()).counts.some(([n]) => n > 0), { timeout: 30_000 })
      .toBe(true);
    const early = await shownSoFar();
    expect(early.pendingText).toMatch(/^Applying [\d,]+ acknowledged calls…$/);
    expect(early.pendingTitle).toBe(
      'SDKs got their 202; these calls are safely spooled and will appear in every figure within moments.',
    );
    // …and where the figures are, the page said they are partial, and by how much.
    expect(early.partialText).toMatch(
      /Applying [\d,]+ acknowledged calls — figures partial\. They fill in by themselves/,
    );
    const status = page.getByTestId('spool-status');
    await expect(status).toHaveAttribute('role', 'status');
    await expect(status).toHaveAttribute('aria-live', 'polite');
    const first = early.counts.find(([n]) => n > 0)![0];
    expect(first).toBeLessThanOrEqual(total);
    await shootBoth(page, 'spool-backlog');

    // It counts down as slices are applied, and goes away when the backlog is gone.
    const pending = page.getByTestId('spool-pending');
    await expect(pending).toHaveCount(0, { timeout: 180_000 });
    await expect(page.getByTestId('figures-partial')).toHaveCount(0);
    const { counts, disagreements } = await shownSoFar();
    const shown = counts.map(([n]) => n).filter((n) => n > 0);
    expect(shown.length, `counts shown: ${shown.join(' ')}`).toBeGreaterThanOrEqual(2);
    expect(Math.min(...shown)).toBeLessThan(shown[0]!);
    expect(counts[counts.length - 1]![0]).toBe(0);
    expect(disagreements).toEqual([]);
    test.info().annotations.push({
      type: 'spool',
      description: `${shown.length} counts shown over ${Math.round(counts[counts.length - 1]![1] - counts[0]![1])} ms, first ${shown[0]}`,
    });

    // The server agrees, and every spooled call is in the figures.
    const spool = await getRemote(server.url, 'spool', {}, { token: server.token });
    expect(spool.spool).toMatchObject({ pendingPayloads: 0, pendingRequests: 0, failing: null });
    await expect(page.getByTestId('card-calls')).toContainText('600,000', { timeout: 30_000 });
    await expect(page.getByTestId('card-calls')).toContainText('error rate 10.0%');
    await expect(page.getByTestId('overview-sub')).toContainText('4 sessions');
    await page.goto(`${server.url}/tools?project=${projectOf(seed.key)}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();
    for (let t = 0; t < 7; t++) await expect(page.locator('main')).toContainText(`spooled_${t}`);
    console.check();
  } finally {
    await stop();
  }
});

test('when spooled calls cannot be stored, every page says why in plain text, until it is fixed', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const seed: SpoolSeed = {
    key: 'mp_live_spool_failing',
    requests: 3,
    perRequest: 500,
    sessions: 2,
  };
  // A real store failure the test can lift: SQLite refuses every insert into `calls` (as a full
  // disk would), with a message that is markup — it must show as text.
  const reason = '<img src=x onerror="window.pwned=1"><b>quota</b> exceeded';
  let dbPath = '';
  const { server, stop } = await startDevtools({
    seed: (db) => {
      dbPath = db;
      seedSpool(
        db,
        seed,
        `CREATE TRIGGER e2e_refuse BEFORE INSERT ON calls BEGIN SELECT RAISE(ABORT, '${reason}'); END;`,
      );
    },
  });
  try {
    // As a user would: the printed link first, then the pages.
    await openLink(page, server);
    // Metrics reads answer 500 while the store cannot apply; that is the page's error state.
    const console = guardConsole(page, { allow: [/status of 500/] });
    await page.goto(`${server.url}/?project=${projectOf(seed.key)}`);
    const banner = page.getByRole('alert').filter({ hasText: 'Calls cannot be stored' });
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner.locator('p')).toHaveText(
      `Calls cannot be stored: ${reason}. New flushes get 503; the 1,500 calls already acknowledged are kept and will be stored once this is fixed.`,
    );
    await expect(banner.locator('img, b')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBe(
      undefined,
    );
    // Not "applying" while nothing can be applied: the banner says it all.
    await expect(page.getByTestId('spool-pending')).toHaveCount(0);
    await expect(page.getByTestId('figures-partial')).toHaveCount(0);

    // What the banner promises: a new flush is refused with 503, and not stored.
    const res = await server.ingest(
      { batch: [call({ session: sessionId(99), tool: 'refused_tool', at: Date.now() })] },
      seed.key,
    );
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('quota');

    // Acknowledged calls are received data: no page asks for a first payload meanwhile.
    await expect(page.getByText('Waiting for the first payload')).toHaveCount(0);
    // On every page, including those without the filter bar.
    await page.goto(`${server.url}/setup`);
    await expect(banner).toBeVisible();
    await expect(page.getByTestId('first-payload')).toHaveText('Receiving data');
    await shootBoth(page, 'spool-failing');

    // Fixed: the server's next attempt stores what it acknowledged, and the banner goes.
    const db = new Database(dbPath);
    try {
      db.pragma('busy_timeout = 10000');
      db.exec('DROP TRIGGER e2e_refuse');
    } finally {
      db.close();
    }
    await expect(banner).toHaveCount(0, { timeout: 30_000 });
    await page.goto(`${server.url}/?project=${projectOf(seed.key)}`);
    await expect(page.getByTestId('card-calls')).toContainText('1,500');
    await expect(page.getByTestId('spool-pending')).toHaveCount(0);
    console.check();
  } finally {
    await stop();
  }
});
