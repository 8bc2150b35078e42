/**
 * Every command the product suggests runs where it is suggested (issue 43). A clone puts no
 * `mcpulse-devtools` on PATH and the package is not on the registry, so a bare
 * `mcpulse-devtools demo` on the first screen or in `--help` ran nowhere. Now:
 * - the UI puts the server's own `status.cli` words (`node /abs/dist/cli/main.js`) in front of
 *   what it suggests (`cli('demo')`), or `npx mcpulse-devtools`, which resolves the package's
 *   own bin inside the checkout;
 * - `--help` names the CLI as it was run (`node dist/cli/main.js` from the checkout), and the
 *   MCP registration it suggests names it by full paths.
 * Each suggested line is read out of the UI source and the real help texts, checked against
 * package.json (bin, scripts) and the CLI's commands, and the cheap ones are run. Needs the
 * build (`npm run build`), as `npm test` does before the unit tests.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const MAIN = join(root, 'dist', 'cli', 'main.js');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
};

/** Source files of the UI, without comments (a JSDoc may name a command without suggesting it). */
function uiSources(): { file: string; code: string }[] {
  const found: { file: string; code: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      // The SDK snippets' commands (`npm run build && npm pack`) run in the SDKs' own clones.
      else if (/\.tsx?$/.test(entry.name) && entry.name !== 'sdk-snippets.ts')
        found.push({
          file: relative(root, path),
          code: readFileSync(path, 'utf8')
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/^\s*\/\/.*$/gm, '')
            .replace(/\{\/\*[\s\S]*?\*\/\}/g, ''),
        });
    }
  };
  walk(join(root, 'renderer', 'src'));
  return found;
}

const ui = uiSources();
const all = (re: RegExp): { file: string; text: string; words: string[] }[] =>
  ui.flatMap(({ file, code }) =>
    [...code.matchAll(re)].map((m) => ({ file, text: m[0], words: m.slice(1) as string[] })),
  );

/** `mcpulse-devtools X` not behind npx, a path or a dot (the state folder `~/.mcpulse-devtools/`). */
const BARE = /(?<![\w./-]|npx )mcpulse-devtools (?!-)(\w[\w-]*)/g;

describe('the UI', () => {
  it('suggests no bare `mcpulse-devtools …`, which a clone has nowhere on PATH', () => {
    expect(all(BARE).map((m) => `${m.file}: ${m.text}`)).toEqual([]);
  });

  it('suggests CLI commands through cli(…), each one a command the CLI has', () => {
    const suggested = all(/\bcli\(\s*['"`]([^'"`]+)['"`]\s*\)/g);
    // The first screen's demo, the Setup page's serve and proxy, the content notes' proxy.
    expect(suggested.length).toBeGreaterThanOrEqual(6);
    for (const { file, words } of suggested)
      expect(Object.keys(COMMANDS), file).toContain(words[0]!.split(' ')[0]);
  });

  it('suggests `npx mcpulse-devtools X` only for this package’s own bin and a real command', () => {
    const npx = all(/npx mcpulse-devtools(?: (\w[\w-]*))?/g);
    expect(pkg.bin).toHaveProperty('mcpulse-devtools');
    // npx resolves a project's own bin by its name, from anywhere inside the checkout.
    expect(pkg.name).toBe('mcpulse-devtools');
    for (const { file, words } of npx)
      if (words[0]) expect(Object.keys(COMMANDS), file).toContain(words[0]);
  });

  it('suggests npm scripts package.json has', () => {
    for (const { file, words } of all(/\bnpm (?:run ([\w:-]+)|(start|test)\b)/g))
      expect(Object.keys(pkg.scripts), file).toContain(words[0] ?? words[1]);
  });
});

describe('what the UI suggests, run', () => {
  let t: TestServer;
  beforeAll(async () => {
    expect(existsSync(MAIN), 'dist/cli/main.js exists: run npm run build first').toBe(true);
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it('status.cli runs this CLI from any folder, each suggested command’s --help included', async () => {
    const { cli } = (await (await t.fetch('/api/status')).json()) as { cli: string[] | null };
    expect(cli).toEqual([process.execPath, MAIN]);
    const names = new Set(all(/\bcli\(\s*['"`](\w[\w-]*)/g).map((m) => m.words[0]!));
    await Promise.all(
      [...names].map(async (name) => {
        const { stdout } = await run(cli![0]!, [...cli!.slice(1), name, '--help'], {
          cwd: tmpdir(),
        });
        expect(stdout).toMatch(new RegExp(`^usage: node \\S+ ${name}\\b`));
      }),
    );
  }, 60_000);

  it('`npx mcpulse-devtools token` (the locked screen’s) runs in the checkout', async () => {
    const { stdout } = await run('npx', ['mcpulse-devtools', 'token', '--help'], { cwd: root });
    expect(stdout).toMatch(/^usage: npx mcpulse-devtools token/);
  });
});

describe('the --help texts', () => {
  /** Every help text as `npm start` users meet it: run from the checkout with `node dist/…`. */
  const helps = async (): Promise<Map<string, string>> => {
    const help = async (args: string[]): Promise<string> =>
      (await run(process.execPath, [MAIN, ...args, '--help'], { cwd: root })).stdout;
    const names = ['', ...Object.keys(COMMANDS)];
    const texts = await Promise.all(names.map((name) => help(name ? [name] : [])));
    return new Map(names.map((name, i) => [name, texts[i]!]));
  };

  it('name the CLI as it was run, suggest only real commands, and each of those runs', async () => {
    const texts = await helps();
    const suggested = new Set<string>();
    for (const [name, text] of texts) {
      expect(text.replace(BARE, ''), `${name} --help has no bare mcpulse-devtools`).toBe(text);
      for (const m of text.matchAll(/node dist\/cli\/main\.js ([\w<>-]+)/g)) {
        if (m[1] === '<command>') continue;
        expect(Object.keys(COMMANDS), `${name} --help: ${m[0]}`).toContain(m[1]);
        suggested.add(m[1]!);
      }
    }
    expect([...suggested].sort()).toEqual(Object.keys(COMMANDS).sort()); // every usage line
    // As printed: `node dist/cli/main.js NAME`, from the checkout.
    await Promise.all(
      [...suggested].map(async (name) => {
        const { stdout } = await run('node', ['dist/cli/main.js', name, '--help'], { cwd: root });
        expect(stdout).toMatch(new RegExp(`^usage: node dist/cli/main\\.js ${name}\\b`));
      }),
    );
  }, 120_000);

  it('mcp --help registers the server by full paths, which run from the assistant’s folder', async () => {
    const text = (await run(process.execPath, [MAIN, 'mcp', '--help'], { cwd: root })).stdout;
    const claude = /claude mcp add mcpulse -- (\S+) (\S+) mcp$/m.exec(text);
    expect(claude?.slice(1)).toEqual([process.execPath, MAIN]);
    const json = JSON.parse(/^\s*(\{"mcpServers".*)$/m.exec(text)![1]!) as {
      mcpServers: { mcpulse: { command: string; args: string[] } };
    };
    const { command, args } = json.mcpServers.mcpulse;
    expect([command, ...args]).toEqual([process.execPath, MAIN, 'mcp']);
    const { stdout } = await run(command, [...args, '--help'], { cwd: tmpdir() });
    expect(stdout).toMatch(/^usage: node \S+main\.js mcp/);
  });
});
