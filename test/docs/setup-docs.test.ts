/**
 * docs/setup.md and the Setup page say the same thing: the generated part of the file is exactly
 * what renderer/src/pages/setup/sdk-snippets.ts renders (`npx tsx scripts/write-setup-docs.ts`
 * rewrites it). The README leads with the product and links there (issue 43). Also holds the snippets to the facts
 * issue 11 found: no SDK reads MCPULSE_ENDPOINT, and each snippet names its real option.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SDK_SETUPS, setupCode } from '../../renderer/src/pages/setup/sdk-snippets.js';
import { SETUP_MARKERS, setupMarkdown } from '../../renderer/src/pages/setup/setup-markdown.js';

const root = join(import.meta.dirname, '..', '..');
const generatedPart = (file: string): string => {
  const text = readFileSync(join(root, file), 'utf8');
  const start = text.indexOf(SETUP_MARKERS.start);
  const end = text.indexOf(SETUP_MARKERS.end);
  expect(start, `${file} has the setup start marker`).toBeGreaterThan(-1);
  expect(end, `${file} has the setup end marker`).toBeGreaterThan(start);
  return text.slice(start + SETUP_MARKERS.start.length + 1, end);
};

describe('docs/setup.md agrees with the Setup page', () => {
  it('carries the snippets byte for byte', () => {
    expect(generatedPart('docs/setup.md')).toBe(setupMarkdown());
  });

  it('README links there instead of carrying the nine-SDK table, and keeps the one rule', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).not.toContain(SETUP_MARKERS.start);
    expect(readme).not.toMatch(/^\| SDK \|/m);
    expect(readme).toContain('](docs/setup.md)');
    expect(readme).not.toMatch(/export MCPULSE_ENDPOINT/);
    expect(readme).toMatch(/No MCPulse\s+SDK reads `MCPULSE_ENDPOINT`/);
  });

  it('README names what a from-source build of better-sqlite3 needs, and how long install takes', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain('g++, make and python3');
    expect(readme).toMatch(/`npm install` takes about 2\.5 minutes/);
    expect(readme).toMatch(/compiles from source — several minutes more/);
  });
});

describe('the snippets', () => {
  it('cover the nine SDKs the Setup page lists', () => {
    expect(SDK_SETUPS.map((s) => s.label)).toEqual([
      'TypeScript',
      'Python',
      'Go',
      'Java / Kotlin',
      '.NET',
      'Rust',
      'Ruby',
      'PHP',
      'Swift',
    ]);
  });

  it('set the endpoint through the option each SDK’s source defines, and never rely on MCPULSE_ENDPOINT', () => {
    const endpoint = 'http://127.0.0.1:9999';
    const expected: Record<string, RegExp> = {
      typescript: /endpoint: "http:\/\/127\.0\.0\.1:9999"/,
      go: /Endpoint: "http:\/\/127\.0\.0\.1:9999"/,
      java: /endpoint = "http:\/\/127\.0\.0\.1:9999"/,
      dotnet: /Endpoint = "http:\/\/127\.0\.0\.1:9999"/,
      ruby: /endpoint: "http:\/\/127\.0\.0\.1:9999"/,
      php: /new Options\(getenv\('MCPULSE_KEY'\) \?: '', 'http:\/\/127\.0\.0\.1:9999'\)/,
      python: /endpoint="http:\/\/127\.0\.0\.1:9999"/,
    };
    for (const setup of SDK_SETUPS) {
      const code = setupCode(setup, endpoint);
      expect(code, setup.id).toContain(endpoint);
      expect(code, setup.id).not.toContain('MCPULSE_ENDPOINT');
      if (expected[setup.id]) expect(code, setup.id).toMatch(expected[setup.id]!);
      // A source named for every SDK that has one; the three without say so.
      if (setup.source === null) expect(setup.envRead).toMatch(/no public source/);
      else expect(setup.envRead).toMatch(/^none/);
    }
  });
});

describe('the notes read from the SDKs’ sources (issue 21)', () => {
  const of = (id: string) => SDK_SETUPS.find((s) => s.id === id)!;

  it('say how to install each SDK, where it is published and which version was read', () => {
    for (const s of SDK_SETUPS) {
      expect(s.install, s.id).not.toBe('');
      expect(s.installNote.length, s.id).toBeGreaterThan(20);
    }
    // The TS package is not on the registry reachable here: say so, and how to build it.
    expect(of('typescript').installNote).toContain('E404');
    expect(of('typescript').installNote).toContain('npm pack');
    expect(of('go').install).toContain('@44699b5');
    for (const id of ['typescript', 'ruby', 'php', 'dotnet', 'java'])
      expect(of(id).installNote, id).toMatch(/read from \d/);
  });

  it('Go: WrapTool in the snippet and its reason in the notes; a short-lived server sends nothing', () => {
    const go = of('go');
    expect(setupCode(go, 'http://localhost:7857')).toContain('mcpulse.WrapTool(handler)');
    expect(go.notes.join(' ')).toMatch(/WrapTool.*bad_args.*tool_error/);
    expect(go.notes.join(' ')).toMatch(/under 5 s .* sends nothing/);
  });

  it('PHP: flushAll is about when data arrives (at exit), not data lost', () => {
    const php = of('php');
    expect(php.flush).toMatch(/arrive when it exits/);
    expect(php.notes[0]).toMatch(/^Nothing is lost by waiting/);
    expect(`${php.flush} ${php.notes.join(' ')}`).not.toMatch(/must call/);
  });

  it('the markdown carries the install line of every SDK', () => {
    const md = setupMarkdown();
    for (const s of SDK_SETUPS) expect(md).toContain(`Install: \`${s.install}\``);
  });
});
