/**
 * SQL is written in src/store alone (issue 39): the API passes conditions as data
 * (src/shared/call-conditions.ts), the store turns them into statements. A scan of every other
 * source file for statement shapes; the demo's MCP server is exempt (its tool arguments are
 * example SQL sent to a fake database, not ours).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const src = join(import.meta.dirname, '..', '..', 'src');
const EXEMPT = ['store', 'demo'];
const STATEMENT =
  /\b(SELECT\b[^'"`]*\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX)|WHERE\s+\w+\s*(=|<>|>=|<=|IN)\s)/;
/** Conditions spliced into a statement elsewhere: `outcome = 'ok'`, `link = 2`, `NOT (…)`. */
const FRAGMENT = /['"`][^'"`]*\b[a-z_]+ (=|<>|>=) ('[a-z_]+'|\d+|@\w+)( AND |['"`])/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

it('finds no SQL outside src/store', () => {
  const offenders: string[] = [];
  for (const folder of readdirSync(src)) {
    if (EXEMPT.includes(folder)) continue;
    for (const file of sourceFiles(join(src, folder))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.trim().startsWith('//') || line.trim().startsWith('*')) return;
          if (STATEMENT.test(line) || FRAGMENT.test(line))
            offenders.push(`${relative(src, file)}:${i + 1}: ${line.trim()}`);
        });
    }
  }
  expect(offenders).toEqual([]);
});

it('would catch the SQL the API used to splice into the store', () => {
  expect(FRAGMENT.test(`        "outcome = 'ok' AND is_empty = 0",`)).toBe(true);
  expect(FRAGMENT.test("    parts.push('size_bucket = @size_bucket');")).toBe(true);
  expect(STATEMENT.test('`SELECT count(*) FROM calls WHERE x = 1`')).toBe(true);
  expect(FRAGMENT.test("if (slot) slot.outcome = 'crashed';")).toBe(false);
});
