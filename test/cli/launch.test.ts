import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayProblem, findElectronBinary } from '../../src/cli/electron-launch.js';
import {
  isInAppNavigation,
  linkDisposition,
  SECURE_WEB_PREFERENCES,
} from '../../src/electron/policy.js';

describe('npm start: can Electron run here?', () => {
  it('reports a missing package, a missing download, and finds a real binary', () => {
    const root = mkdtempSync(join(tmpdir(), 'mcpulse-launch-'));
    try {
      expect(findElectronBinary(root)).toEqual({
        missing: 'the electron package is not installed',
      });
      mkdirSync(join(root, 'node_modules', 'electron', 'dist'), { recursive: true });
      expect(findElectronBinary(root)).toEqual({
        missing: 'the Electron binary was never downloaded',
      });
      writeFileSync(join(root, 'node_modules', 'electron', 'path.txt'), 'electron');
      expect(findElectronBinary(root)).toMatchObject({
        missing: expect.stringMatching(/^no Electron binary at /),
      });
      writeFileSync(join(root, 'node_modules', 'electron', 'dist', 'electron'), '');
      expect(findElectronBinary(root)).toEqual({
        path: join(root, 'node_modules', 'electron', 'dist', 'electron'),
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('needs a display on Linux only', () => {
    expect(displayProblem({}, 'linux')).toMatch(/no display/);
    expect(displayProblem({ DISPLAY: ':0' }, 'linux')).toBeNull();
    expect(displayProblem({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBeNull();
    expect(displayProblem({}, 'darwin')).toBeNull();
  });
});

describe('Electron window policy', () => {
  const app = 'http://localhost:7857';

  it('keeps the page sandboxed with no Node bridge', () => {
    expect(SECURE_WEB_PREFERENCES).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webviewTag: false,
    });
  });

  it('lets navigation stay only on the dashboard origin', () => {
    expect(isInAppNavigation('http://localhost:7857/sessions?x=1', app)).toBe(true);
    expect(isInAppNavigation('http://localhost:7858/', app)).toBe(false);
    expect(isInAppNavigation('http://127.0.0.1:7857/', app)).toBe(false);
    expect(isInAppNavigation('file:///etc/passwd', app)).toBe(false);
    expect(isInAppNavigation('not a url', app)).toBe(false);
  });

  it('sends only https links to the browser and drops everything else', () => {
    expect(linkDisposition('https://modelcontextprotocol.io/', app)).toBe('external');
    expect(linkDisposition('http://example.com/', app)).toBe('deny');
    expect(linkDisposition('javascript:alert(1)', app)).toBe('deny');
    expect(linkDisposition('file:///etc/passwd', app)).toBe('deny');
    expect(linkDisposition('vscode://open', app)).toBe('deny');
    expect(linkDisposition(`${app}/tools`, app)).toBe('in-app');
  });
});
