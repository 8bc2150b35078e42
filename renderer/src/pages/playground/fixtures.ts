/**
 * The 23 conformance fixtures every SDK ships (fixtures/canonical.json), read as raw text so
 * each input keeps its exact lexemes (`1.0` stays `1.0`), and checked live against the engine.
 */
import raw from '../../../../fixtures/canonical.json?raw';
import { analyze, parseJson, type JsonNode } from '../../../../src/canonical/index';

export interface Fixture {
  name: string;
  /** The input exactly as written in the file, de-indented. */
  inputText: string;
  canonical: string;
  argsHash: string;
}

export interface FixtureResult extends Fixture {
  gotCanonical: string | null;
  gotHash: string;
  pass: boolean;
}

function member(node: JsonNode, key: string): JsonNode | undefined {
  return node.kind === 'object' ? node.members.find((m) => m.key.value === key)?.value : undefined;
}

/** Removes the indentation the fixture file gives every line after the first. */
function dedent(text: string): string {
  const lines = text.split('\n');
  if (lines.length < 2) return text;
  const last = lines.at(-1)!;
  const base = last.length - last.trimStart().length;
  return lines
    .map((l, i) => (i === 0 ? l : l.slice(Math.min(base, l.length - l.trimStart().length))))
    .join('\n');
}

export function loadFixtures(): Fixture[] {
  const { ast } = parseJson(raw);
  const list = member(ast, 'fixtures');
  if (!list || list.kind !== 'array') return [];
  return list.items.map((item) => {
    const input = member(item, 'input')!;
    const str = (k: string): string => {
      const n = member(item, k);
      return n?.kind === 'string' ? n.value : '';
    };
    return {
      name: str('name'),
      inputText: dedent(raw.slice(input.start, input.end)),
      canonical: str('canonical'),
      argsHash: str('args_hash'),
    };
  });
}

/** Runs every fixture through the engine the Playground uses. */
export function checkFixtures(fixtures: Fixture[]): FixtureResult[] {
  return fixtures.map((f) => {
    try {
      const a = analyze(f.inputText);
      return {
        ...f,
        gotCanonical: a.canonical,
        gotHash: a.argsHash,
        pass: a.canonical === f.canonical && a.argsHash === f.argsHash,
      };
    } catch {
      return { ...f, gotCanonical: null, gotHash: '', pass: false };
    }
  });
}
