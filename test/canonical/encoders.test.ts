/**
 * The trap model, measured: every measured variant runs on the same corpus as the real encoder
 * (Python json.dumps, Go encoding/json, Ruby JSON.generate, PHP json_encode, Java
 * Double.toString), one process per language, and must agree byte for byte — failures included
 * (a runtime that refuses an input must be modelled as refusing it).
 *
 * A missing runtime skips its test with the reason, locally; under CI (CI=true) it fails, since
 * .ci/run installs them through scripts/install-encoders.sh.
 */
import { describe, expect, it } from 'vitest';
import { DOUBLE_FORMATS, encodeAs, parseJson, variant } from '../../src/canonical/index.js';
import { EncodeFailure, TrapNotes } from '../../src/canonical/traps/notes.js';
import {
  doubleLines,
  EDGE_CASES,
  fixtureInputs,
  interestingDoubles,
  randomDocuments,
  VECTORS,
} from './corpus.js';
import { fromHex, probe, runBatch, utf8Hex, type Runtime } from './encoders/run.js';

const CORPUS = [
  ...new Set([
    ...fixtureInputs(),
    ...VECTORS.map((v) => v.json),
    ...EDGE_CASES,
    ...doubleLines(interestingDoubles(6000)),
    ...randomDocuments(1200),
  ]),
];

/** What the model says a variant writes for one input: hex of its UTF-8, or a failure. */
function model(variantId: string, json: string): string {
  const v = variant(variantId);
  if (v === undefined) throw new Error(`no variant ${variantId}`);
  try {
    return utf8Hex(encodeAs(v.style, parseJson(json).ast, new TrapNotes()));
  } catch (error) {
    if (error instanceof EncodeFailure) return '!';
    throw error;
  }
}

/** Compares the model with the real encoder's cells, column by column; returns the mismatches. */
function compare(variantIds: string[], inputs: string[], real: string[][]): string[] {
  const problems: string[] = [];
  inputs.forEach((json, row) => {
    variantIds.forEach((id, column) => {
      const cell = real[row]![column]!;
      const expected = cell.startsWith('!') ? '!' : cell;
      const got = model(id, json);
      if (got !== expected && problems.length < 20) {
        problems.push(
          `${id} on ${json.slice(0, 120)}\n   real:  ${fromHex(cell).slice(0, 200)}\n   model: ${got === '!' ? '(fails)' : fromHex(got).slice(0, 200)}`,
        );
      }
    });
  });
  return problems;
}

/** A real-encoder test, skipped with its reason when the runtime is missing (failed under CI). */
function withRuntime(name: string, runtime: Runtime, body: (version: string) => void): void {
  if (runtime.ok) {
    it(`${name} (${runtime.version})`, () => body(runtime.version), 180_000);
  } else if (process.env.CI) {
    it(`${name}`, () => {
      throw new Error(`${runtime.reason}: CI must install it (scripts/install-encoders.sh)`);
    });
  } else {
    it.skip(`${name} — skipped: ${runtime.reason}; run scripts/install-encoders.sh`, () => {});
  }
}

describe('the trap model agrees with the real encoders', () => {
  withRuntime('Python json.dumps, four configurations', probe('python3', ['--version']), () => {
    const ids = ['python', 'python-unicode', 'python-spaces', 'python-spaces-unicode'];
    const real = runBatch('python3', ['encode.py'], CORPUS);
    expect(compare(ids, CORPUS, real)).toEqual([]);
  });

  withRuntime('Go encoding/json Marshal', probe('go', ['version']), (version) => {
    // Go 1.22 started writing \b and \f short; the model has both, so pick the installed one.
    const minor = Number(/go1\.(\d+)/.exec(version)?.[1] ?? 22);
    const id = minor >= 22 ? 'go' : 'go-1.21';
    const real = runBatch('go', ['run', 'encode.go'], CORPUS);
    expect(compare([id], CORPUS, real)).toEqual([]);
  });

  withRuntime(
    'Ruby JSON.generate, insertion order and sorted',
    probe('ruby', ['--version']),
    () => {
      const real = runBatch('ruby', ['encode.rb'], CORPUS);
      expect(compare(['ruby', 'ruby-sorted'], CORPUS, real)).toEqual([]);
    },
  );

  withRuntime('PHP json_encode, four configurations', probe('php', ['--version']), () => {
    const ids = ['php', 'php-assoc', 'php-unsorted', 'php-unescaped'];
    const real = runBatch('php', ['encode.php'], CORPUS);
    expect(compare(ids, CORPUS, real)).toEqual([]);
  });

  withRuntime(
    'Java Double.toString (the JDK has no JSON encoder)',
    probe('java', ['-version']),
    (version) => {
      const doubles = interestingDoubles(8000, 11);
      const lexemes = doubles.map((x) => (Object.is(x, -0) ? '-0.0' : x.toExponential()));
      const real = runBatch('java', ['Doubles.java'], lexemes).map((cells) => cells[0]!);
      const major = Number(/version "(\d+)/.exec(version)?.[1] ?? 21);
      const problems: string[] = [];
      doubles.forEach((x, i) => {
        const expected = real[i]!;
        const got = DOUBLE_FORMATS.java(x);
        if (got === expected) return;
        // JDK ≤ 18 does not always pick the shortest, closest digits (JDK-4511638, fixed in 19:
        // 1e23 as 9.999999999999999E22, 1e-323 as 1.0E-323); the model follows JDK 19+. On an
        // older JDK accept only that: the same double, in the same layout.
        const legacy = major < 19 && Number(expected) === x && layout(expected) === layout(got);
        if (!legacy && problems.length < 20) problems.push(`${x}: real ${expected}, model ${got}`);
      });
      expect(problems).toEqual([]);
    },
  );
});

/** Plain or scientific, and whether a fraction is written: what the model's thresholds decide. */
const layout = (text: string) => `${text.includes('E') ? 'E' : 'plain'}:${/\.\d/.test(text)}`;

it('the corpus is big and varied enough to mean something', () => {
  expect(CORPUS.length).toBeGreaterThan(800);
  // Non-ASCII, astral keys, escapes and deep nesting all present.
  expect(CORPUS.some((json) => /[\u0080-\uffff]/.test(json))).toBe(true);
  expect(CORPUS.some((json) => json.length > 1000)).toBe(true);
});
