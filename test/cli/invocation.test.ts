/**
 * How the CLI names itself in help and hints (src/cli/invocation.ts) and how the server says
 * its CLI runs from anywhere (src/server/cli-words.ts): each suggestion must run as typed where
 * it is shown (issue 43). Real folders for the existence checks.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { progFor } from '../../src/cli/invocation.js';
import { cliWords } from '../../src/server/cli-words.js';

describe('progFor', () => {
  it('is `node dist/cli/main.js` from the checkout, as npm start runs it', () => {
    expect(progFor('/home/me/mcpulse/dist/cli/main.js', '/home/me/mcpulse')).toBe(
      'node dist/cli/main.js',
    );
  });

  it('names the script by its full path from outside the checkout, quoted where needed', () => {
    expect(progFor('/home/me/my clone/dist/cli/main.js', '/tmp')).toBe(
      "node '/home/me/my clone/dist/cli/main.js'",
    );
    expect(progFor('/home/me/mcpulse/dist/cli/main.js', '/home/me/mcpulse/renderer')).toBe(
      'node /home/me/mcpulse/dist/cli/main.js',
    );
  });

  it('is the bin name through a link on PATH, and `npx mcpulse-devtools` through npx’s cache', () => {
    expect(progFor('/usr/local/bin/mcpulse-devtools', '/tmp')).toBe('mcpulse-devtools');
    expect(
      progFor('/root/.npm/_npx/326a86fafbba5bfb/node_modules/.bin/mcpulse-devtools', '/x'),
    ).toBe('npx mcpulse-devtools');
  });

  it('says tsx is needed when run from source', () => {
    expect(progFor('/r/src/cli/main.ts', '/r')).toBe('node --import tsx src/cli/main.ts');
  });
});

describe('cliWords', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const root = (built: boolean): string => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-cli-words-'));
    dirs.push(dir);
    if (built) {
      mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
      writeFileSync(join(dir, 'dist', 'cli', 'main.js'), '');
    }
    return dir;
  };

  it('is this Node and the built entry by full paths', () => {
    const dir = root(true);
    expect(cliWords(dir, { execPath: '/opt/node20/bin/node' })).toEqual([
      '/opt/node20/bin/node',
      join(dir, 'dist', 'cli', 'main.js'),
    ]);
  });

  it('uses `node` under Electron, whose binary is no Node', () => {
    const dir = root(true);
    expect(cliWords(dir, { execPath: '/opt/app/electron', electron: '45.3.4' })?.[0]).toBe('node');
  });

  it('is null without a build, and inside a packaged app’s asar archive', () => {
    expect(cliWords(root(false))).toBeNull();
    expect(cliWords('/opt/MCPulse/resources/app.asar')).toBeNull();
  });
});
