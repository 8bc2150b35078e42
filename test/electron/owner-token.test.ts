/**
 * The desktop window gets the owner token without the user seeing it (issue 40): start-up sets
 * it as the session's cookie before the window loads the plain dashboard URL. A fake Electron
 * surface; the server, the HTTP and the token file are real.
 */
import { statSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDesktop } from '../../src/electron/startup.js';
import { tokenCookieName } from '../../src/shared/owner-token.js';
import { useNativeBinding } from '../../src/store/index.js';
import { fakeDesktop, type FakeDesktop } from './fake-surface.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  useNativeBinding(undefined);
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function desktop(env: (userData: string) => NodeJS.ProcessEnv): FakeDesktop {
  const d = fakeDesktop();
  d.surface.env = env(d.userData);
  cleanups.push(() => d.cleanup());
  return d;
}

describe('desktop start-up: the owner token', () => {
  it('makes the token file on first start and hands it to the window as a cookie', async () => {
    const d = desktop((home) => ({ HOME: home }));
    const session = await startDesktop(d.surface);
    expect(session).not.toBeNull();
    cleanups.push(() => d.emitApp('will-quit'));
    const { port } = session!.server.info;
    const file = join(d.userData, '.mcpulse-devtools', 'token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(d.userData, '.mcpulse-devtools')).mode & 0o777).toBe(0o700);
    expect(d.cookies).toHaveLength(1);
    const cookie = d.cookies[0]!;
    expect(cookie).toMatchObject({
      url: session!.server.url,
      name: tokenCookieName(port),
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
    });
    // The window loads the plain URL: the token is never in anything the user sees.
    expect(d.windows[0]!.loadedUrl).toBe(session!.server.url);
    expect(d.windows[0]!.loadedUrl).not.toContain(cookie.value);
    // …and the cookie is the one the server takes.
    const res = await fetch(`${session!.server.url}/api/calls`, {
      headers: { cookie: `${cookie.name}=${cookie.value}` },
    });
    expect(res.status).toBe(200);
    expect((await fetch(`${session!.server.url}/api/calls`)).status).toBe(401);
  });

  it('a token file another user could change: one line in the dialog, no window', async () => {
    const d = desktop((home) => ({ HOME: home }));
    const dir = join(d.userData, '.mcpulse-devtools');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'token'), 'planted-token\n');
    chmodSync(join(dir, 'token'), 0o666);
    const session = await startDesktop(d.surface);
    expect(session).toBeNull();
    expect(d.windows).toHaveLength(0);
    expect(d.exitCodes).toEqual([1]);
    expect(d.dialogs[0]!.content).toMatch(
      /token can be changed by other users|can be changed by other users/,
    );
  });
});
