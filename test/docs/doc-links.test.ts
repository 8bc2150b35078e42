/**
 * Every relative link in README.md and docs/*.md reaches a file that exists and, when it names
 * an anchor in a Markdown file, a heading that makes that anchor. Issue 43 moved the benchmark
 * diary to docs/benchmarks-history.md: the links into its sections had to follow, and one anchor
 * had been broken for days without anyone noticing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** The anchors GitHub makes of a file's headings (lowercase, punctuation dropped, spaces → -). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base);
    seen.set(base, (n ?? -1) + 1);
    anchors.add(n === undefined ? base : `${base}-${n + 1}`);
  }
  return anchors;
}

const files = ['README.md', ...readdirSync(join(root, 'docs')).map((f) => join('docs', f))].filter(
  (f) => f.endsWith('.md'),
);

describe('links between the docs', () => {
  it('anchors follow GitHub: punctuation dropped, repeats numbered', () => {
    const anchors = anchorsOf('# Ingest (bench/ingest.ts)\n## A, b — c’s (2×)\n## A, b — c’s (2×)');
    expect([...anchors]).toEqual(['ingest-benchingestts', 'a-b--cs-2', 'a-b--cs-2-1']);
  });

  it.each(files)('every relative link in %s resolves', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue; // http:, https:, mailto:
      const [path, anchor] = target!.split('#');
      const full = path ? normalize(join(root, dirname(file), path)) : join(root, file);
      if (!existsSync(full)) broken.push(`${target} (no such file)`);
      else if (anchor && full.endsWith('.md') && !anchorsOf(readFileSync(full, 'utf8')).has(anchor))
        broken.push(`${target} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });
});
