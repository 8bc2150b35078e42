/**
 * The two things `conformance` grades, as pure functions over file text:
 * - a fixture file in the shared format (`{"fixtures":[{name,input,canonical,args_hash}]}`),
 *   checked against this engine;
 * - a JSONL of `{"input", "args_hash"}` pairs that another SDK produced, checked against the
 *   canonical hash, each mismatch explained by the trap model.
 */
import {
  canonicalOrNull,
  explainHash,
  hashText,
  JsonSyntaxError,
  nodeSha256Hex,
  parseJson,
  sameHash,
  toValue,
  UNHASHABLE,
  type Explanation,
  type JsonNode,
  type JsonObject,
} from '../../canonical/node.js';

/** The verdict on one case or line. */
export interface CaseResult {
  /** The fixture's name, or `line N`. */
  name: string;
  ok: boolean;
  /** What the file claims (hash, and canonical text for fixtures). */
  expected: { args_hash: string; canonical?: string };
  /** What RFC 8785 gives. */
  actual: { args_hash: string; canonical: string | null };
  /** Why it failed: a malformed line, or the trap model's reading of a wrong hash. */
  problem?: string;
  explanation?: Explanation;
}

/** The member of an object node named `name`, if any (the last one, as JSON.parse would). */
function member(node: JsonNode, name: string): JsonNode | undefined {
  if (node.kind !== 'object') return undefined;
  return (node as JsonObject).members.findLast((m) => m.key.value === name)?.value;
}

function stringMember(node: JsonNode, name: string): string | undefined {
  const value = member(node, name);
  return value?.kind === 'string' ? value.value : undefined;
}

function canonicalHash(input: JsonNode): { args_hash: string; canonical: string | null } {
  const canonical = canonicalOrNull(toValue(input));
  return { canonical, args_hash: canonical === null ? UNHASHABLE : hashText(canonical) };
}

/** Whether a file's text is a fixture file in the shared format. */
export function isFixtureFile(text: string): boolean {
  try {
    const { ast } = parseJson(text);
    return member(ast, 'fixtures')?.kind === 'array';
  } catch {
    return false;
  }
}

/** Checks every case of a shared-format fixture file against this engine. */
export function checkFixtures(text: string): CaseResult[] {
  const fixtures = member(parseJson(text).ast, 'fixtures');
  if (fixtures?.kind !== 'array') return [];
  return fixtures.items.map((fixture, i) => {
    const name = stringMember(fixture, 'name') ?? `fixture ${i + 1}`;
    const input = member(fixture, 'input');
    const expected = {
      args_hash: stringMember(fixture, 'args_hash') ?? '',
      canonical: stringMember(fixture, 'canonical') ?? '',
    };
    if (input === undefined) {
      return {
        name,
        ok: false,
        expected,
        actual: { args_hash: UNHASHABLE, canonical: null },
        problem: 'the case has no "input"',
      };
    }
    const actual = canonicalHash(input);
    const ok = actual.canonical === expected.canonical && actual.args_hash === expected.args_hash;
    const result: CaseResult = { name, ok, expected, actual };
    if (!ok && expected.args_hash !== actual.args_hash)
      result.explanation = explainHash(input, expected.args_hash, nodeSha256Hex);
    else if (!ok) result.problem = 'the hash agrees but the canonical text does not';
    return result;
  });
}

/**
 * Grades one JSONL line `{"input": …, "args_hash": "…"}` from another SDK. `input_json` (a
 * string holding the JSON text exactly as the SDK saw it) may stand in for `input`, for
 * number forms such as `1.0` that a JSON writer might not preserve.
 */
export function checkPair(line: string, lineNumber: number): CaseResult {
  const name = `line ${lineNumber}`;
  const broken = (problem: string, args_hash = ''): CaseResult => ({
    name,
    ok: false,
    expected: { args_hash },
    actual: { args_hash: UNHASHABLE, canonical: null },
    problem,
  });
  let pair: JsonNode;
  try {
    pair = parseJson(line).ast;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return broken(`not JSON: ${error.message}`);
    throw error;
  }
  const sent = stringMember(pair, 'args_hash');
  if (sent === undefined || !/^[0-9a-f]{4,64}$/.test(sent)) {
    return broken('"args_hash" must be a string of 4–64 lowercase hex digits', sent ?? '');
  }
  let input = member(pair, 'input');
  const raw = stringMember(pair, 'input_json');
  if (raw !== undefined) {
    try {
      input = parseJson(raw).ast;
    } catch (error) {
      if (error instanceof JsonSyntaxError)
        return broken(`"input_json" is not JSON: ${error.message}`, sent);
      throw error;
    }
  }
  // An absent "input" is absent arguments, which hash as {}.
  input ??= parseJson('{}').ast;
  const label = stringMember(pair, 'name');
  const actual = canonicalHash(input);
  const ok = sameHash(sent, actual.args_hash);
  const result: CaseResult = {
    name: label === undefined ? name : `${name} (${label})`,
    ok,
    expected: { args_hash: sent },
    actual,
  };
  if (!ok) result.explanation = explainHash(input, sent, nodeSha256Hex);
  return result;
}
