/**
 * The main process's start-up (src/electron/startup.ts) through a fake Electron surface but a
 * real store, a real SQLite file, a real server on a real port and real HTTP: the window
 * path, and each failure ending in a dialog (or stderr), the launcher told and exit 1.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronBuildFolder } from '../../src/electron/native-binding.js';
import {
  desktopOptions,
  FAILURE_TITLE,
  startDesktop,
  type DesktopSession,
} from '../../src/electron/startup.js';
import { openDbForCli } from '../../src/host/open-db.js';
import { startServer } from '../../src/server/index.js';
import { VERSION } from '../../src/server/version.js';
import { currentNativeBinding, useNativeBinding } from '../../src/store/index.js';
import { fakeDesktop, type FakeDesktop } from './fake-surface.js';
import { authedFetch, TEST_TOKEN } from '../helpers/token.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  useNativeBinding(undefined);
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function desktop(options: Parameters<typeof fakeDesktop>[0] = {}): FakeDesktop {
  const d = fakeDesktop(options);
  cleanups.push(() => d.cleanup());
  return d;
}

function closeSession(d: FakeDesktop, session: DesktopSession | null): void {
  if (session) cleanups.push(() => d.emitApp('will-quit'));
}

/** The failure contract: one dialog with the message, the same line on stderr, told, exit 1. */
function expectFailure(d: FakeDesktop, session: DesktopSession | null, message: RegExp): void {
  expect(session).toBeNull();
  expect(d.exitCodes).toEqual([1]);
  expect(d.windows).toHaveLength(0);
  expect(d.dialogs).toHaveLength(1);
  expect(d.dialogs[0]).toEqual({ title: FAILURE_TITLE, content: expect.stringMatching(message) });
  expect(d.stderr).toEqual([`mcpulse-devtools: ${d.dialogs[0]!.content}\n`]);
  expect(d.signals).toEqual([{ type: 'mcpulse:startup-failed', message: d.dialogs[0]!.content }]);
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpulse-startup-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('desktop start-up: the window', () => {
  it('serves, titles the window with the port, shows it when painted and tells the launcher', async () => {
    const d = desktop();
    const session = await startDesktop(d.surface);
    closeSession(d, session);
    expect(session).not.toBeNull();
    const { port } = session!.server.info;
    expect(port).toBeGreaterThan(0);
    const res = await authedFetch(`${session!.server.url}/api/status`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { dbPath: string }).dbPath).toBe(join(d.userData, 'devtools.db'));

    expect(d.windows).toHaveLength(1);
    const win = d.windows[0]!;
    expect(win.options.title).toBe(`MCPulse Devtools — localhost:${port}`);
    expect(win.loadedUrl).toBe(session!.server.url);
    expect(d.guardedOrigins).toEqual([session!.server.url]);
    expect(d.menus).toHaveLength(1);
    // Not shown, and not reported, until Chromium has painted it.
    expect(win.calls).not.toContain('show');
    expect(d.signals).toEqual([]);
    win.emit('ready-to-show');
    expect(win.calls).toContain('show');
    expect(d.signals).toEqual([{ type: 'mcpulse:window-shown', url: session!.server.url }]);
    expect(d.dialogs).toEqual([]);
    expect(d.exitCodes).toEqual([]);
  });

  it('a second launch hands over: it quits, and the first window is restored and focused', async () => {
    const first = desktop();
    const session = await startDesktop(first.surface);
    closeSession(first, session);
    const win = first.windows[0]!;
    win.minimized = true;
    first.emitApp('second-instance');
    expect(win.calls).toEqual(expect.arrayContaining(['restore', 'focus']));

    const second = desktop({ singleInstance: false });
    expect(await startDesktop(second.surface)).toBeNull();
    expect(second.quits).toBe(1);
    expect(second.exitCodes).toEqual([]);
    expect(second.windows).toEqual([]);
    expect(second.signals).toEqual([{ type: 'mcpulse:handed-over' }]);
  });

  it('remembers the window: the bounds it closed with open the next launch', async () => {
    const d = desktop({ workAreas: [{ x: 0, y: 0, width: 2560, height: 1440 }] });
    const first = await startDesktop(d.surface);
    d.windows[0]!.bounds = { x: 300, y: 200, width: 1000, height: 700 };
    d.windows[0]!.maximized = true;
    d.windows[0]!.emit('close');
    d.windows[0]!.emit('closed');
    d.emitApp('will-quit');
    expect(first).not.toBeNull();
    const saved = [...d.files.values()];
    expect(saved).toHaveLength(1);
    expect(JSON.parse(saved[0]!)).toEqual({
      bounds: { x: 300, y: 200, width: 1000, height: 700 },
      maximized: true,
    });

    // The same user-data folder (same files), a new launch.
    const again = await startDesktop(d.surface);
    closeSession(d, again);
    const win = d.windows[1]!;
    expect(win.options.bounds).toEqual({ x: 300, y: 200, width: 1000, height: 700 });
    expect(win.calls).toContain('maximize');
  });

  it('macOS: activating with no window opens a new one on the same server', async () => {
    const d = desktop({ platform: 'darwin' });
    const session = await startDesktop(d.surface);
    closeSession(d, session);
    d.windows[0]!.emit('closed');
    d.emitApp('window-all-closed');
    expect(d.quits).toBe(0); // the macOS convention: the app stays in the dock
    d.emitApp('activate');
    expect(d.windows).toHaveLength(2);
    expect(d.windows[1]!.loadedUrl).toBe(session!.server.url);
  });

  it('elsewhere, closing the last window quits', async () => {
    const d = desktop({ platform: 'linux' });
    closeSession(d, await startDesktop(d.surface));
    d.emitApp('window-all-closed');
    expect(d.quits).toBe(1);
  });
});

describe('desktop start-up: every failure is a dialog and exit 1', () => {
  it('SQLite built for another runtime: names the module and the fix', async () => {
    // The Electron build the install step would have put in place, but one that cannot load
    // here: the real loader's failure, not a simulated one.
    const sqliteDir = tempDir();
    const target = { abi: process.versions.modules, platform: 'linux' as const, arch: 'x64' };
    const addon = join(sqliteDir, 'build', electronBuildFolder(target), 'better_sqlite3.node');
    mkdirSync(join(addon, '..'), { recursive: true });
    writeFileSync(addon, 'not a shared library');
    const d = desktop({ betterSqliteDir: sqliteDir });
    const session = await startDesktop(d.surface);
    expect(currentNativeBinding()).toBe(addon);
    expectFailure(d, session, /^SQLite's native module .*better_sqlite3\.node could not be loaded/);
    expect(d.dialogs[0]!.content).toContain('npm run electron:native');
  });

  it('a database another devtools holds: the lock refusal, in the dialog', async () => {
    const dbPath = join(tempDir(), 'held.db');
    const holder = openDbForCli(dbPath, { instanceLock: true });
    cleanups.push(() => holder.close());
    const d = desktop({ argv: ['--port', '0', '--db', dbPath] });
    expectFailure(
      d,
      await startDesktop(d.surface),
      /^database .*held\.db is in use by another mcpulse-devtools \(pid \d+\)/,
    );
  });

  it('a corrupted database file: says so, and what to do', async () => {
    const dbPath = join(tempDir(), 'garbage.db');
    writeFileSync(dbPath, 'this is not SQLite'.repeat(400));
    const d = desktop({ argv: ['--port', '0', '--db', dbPath] });
    expectFailure(d, await startDesktop(d.surface), /is not a readable SQLite database/);
  });

  it('the port held by another devtools: names it, its pid and the database it serves', async () => {
    const otherDb = join(tempDir(), 'other.db');
    const store = openDbForCli(otherDb, { instanceLock: true });
    const other = await startServer({ store, port: 0, token: TEST_TOKEN });
    cleanups.push(async () => {
      await other.close();
      store.close();
    });
    const port = other.info.port;
    const d = desktop({ argv: ['--port', String(port)] });
    const session = await startDesktop(d.surface);
    expectFailure(
      d,
      session,
      new RegExp(
        `^Port ${port} is already used by another MCPulse Devtools ${VERSION.replace(/\./g, '\\.')} \\(pid ${process.pid}\\), serving .*other\\.db\\. Use that one`,
      ),
    );
  });

  it('the port held by some other program: says it is not ours', async () => {
    const other: Server = createServer((_req, res) => res.writeHead(404).end('nope'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => other.close(() => resolve())));
    const { port } = other.address() as AddressInfo;
    const d = desktop({ argv: ['--port', String(port)] });
    expectFailure(
      d,
      await startDesktop(d.surface),
      new RegExp(`^Port ${port} is already used by another program \\(it answers HTTP 404`),
    );
  });

  it('a bad --port: the flag and what it got', async () => {
    const d = desktop({ argv: ['--port', 'lots'] });
    expectFailure(d, await startDesktop(d.surface), /^MCPulse Devtools could not start: --port/);
  });

  it('a page that will not load: dialog and exit, not an empty window', async () => {
    const d = desktop({ loadFails: true });
    const session = await startDesktop(d.surface);
    closeSession(d, session);
    await new Promise((resolve) => setImmediate(resolve));
    expect(d.exitCodes).toEqual([1]);
    expect(d.dialogs[0]!.content).toMatch(/would not load: Error: ERR_CONNECTION_REFUSED/);
  });

  it('without a display: the line on stderr, no dialog, still exit 1', async () => {
    const dbPath = join(tempDir(), 'held.db');
    const holder = openDbForCli(dbPath, { instanceLock: true });
    cleanups.push(() => holder.close());
    const d = desktop({ argv: ['--db', dbPath, '--port', '0'], canShowDialogs: false });
    expect(await startDesktop(d.surface)).toBeNull();
    expect(d.dialogs).toEqual([]);
    expect(d.stderr).toEqual([expect.stringMatching(/^mcpulse-devtools: database .* is in use/)]);
    expect(d.exitCodes).toEqual([1]);
  });
});

describe('desktop options: --port and --db as serve takes them, among Chromium flags', () => {
  it('reads both spellings, ignores switches that are not ours, and falls back to the defaults', () => {
    expect(desktopOptions(['--no-sandbox', '--port=7', '--db', 'x.db'], {}, '/u')).toEqual({
      port: 7,
      dbPath: 'x.db',
    });
    expect(desktopOptions(['--enable-logging'], {}, '/u')).toEqual({
      port: 7857,
      dbPath: join('/u', 'devtools.db'),
    });
    expect(
      desktopOptions([], { MCPULSE_DEVTOOLS_PORT: '7900', MCPULSE_DEVTOOLS_DB: '/d.db' }, '/u'),
    ).toEqual({ port: 7900, dbPath: '/d.db' });
    expect(() => desktopOptions(['--port', '70000'], {}, '/u')).toThrow(/--port: expected/);
  });
});
