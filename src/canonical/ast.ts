/**
 * A parsed JSON text that forgets nothing SDKs disagree about: number lexemes (`1.0` is a float
 * in Python but `1` is an int), duplicate members in source order, and where each thing was.
 * `JSON.parse` output cannot answer those questions, so the trap model works on this instead.
 */

/** A JSON value as written, with its UTF-16 offsets in the source (`end` exclusive). */
export type JsonNode = JsonLiteral | JsonNumber | JsonString | JsonArray | JsonObject;

interface Span {
  start: number;
  end: number;
}

/** `null`, `true` or `false`. */
export interface JsonLiteral extends Span {
  kind: 'literal';
  value: null | boolean;
}

/** A number, keeping the text it was written as. */
export interface JsonNumber extends Span {
  kind: 'number';
  /** The lexeme exactly as written, e.g. `1.0`, `-0`, `1E400`. */
  text: string;
  /** What a double holds for it (`Infinity` when the lexeme overflows). */
  value: number;
}

/** A string, decoded. `escaped` says whether the source used any escape. */
export interface JsonString extends Span {
  kind: 'string';
  value: string;
  escaped: boolean;
  /**
   * Printable ASCII that no modelled encoder escapes (see {@link isPlain}): worked out once
   * here so eight encoders do not each scan the string again.
   */
  plain: boolean;
}

/** Printable ASCII without `" \ / < > & ' + \`` or DEL: every encoder writes it as it is. */
const PLAIN = /^[\x20\x21\x23-\x25\x28-\x2a\x2c-\x2e\x30-\x3b\x3d\x3f-\x5b\x5d-\x5f\x61-\x7e]*$/;

/** Whether every modelled encoder writes `value` between quotes exactly as it is. */
export function isPlain(value: string): boolean {
  return PLAIN.test(value);
}

/** An array, items in order. */
export interface JsonArray extends Span {
  kind: 'array';
  items: JsonNode[];
}

/** One `"key": value` member of an object. */
export interface JsonMember {
  key: JsonString;
  value: JsonNode;
}

/** An object, members in source order, duplicates included. */
export interface JsonObject extends Span {
  kind: 'object';
  members: JsonMember[];
}

/** Whether a number lexeme is an integer lexeme (no fraction, no exponent). */
export function isIntegerLexeme(text: string): boolean {
  return !/[.eE]/.test(text);
}

/**
 * The members a dict/map/hash-based parser ends up with: one per key, at the position the key
 * first appeared, holding the value it was given last. That is what JSON.parse, Python, Go,
 * Ruby, PHP, Java (Jackson) and Rust all do with duplicates.
 */
export function effectiveMembers(members: JsonMember[]): JsonMember[] {
  if (members.length < 2) return members;
  if (members.length <= 8 && !hasDuplicateKey(members)) return members;
  const index = new Map<string, number>();
  const out: JsonMember[] = [];
  for (const member of members) {
    const at = index.get(member.key.value);
    if (at === undefined) {
      index.set(member.key.value, out.length);
      out.push(member);
    } else {
      out[at] = { key: out[at]!.key, value: member.value };
    }
  }
  return out;
}

/** A pairwise check: cheaper than a Map for the handful of members most objects have. */
function hasDuplicateKey(members: JsonMember[]): boolean {
  for (let i = 1; i < members.length; i++) {
    for (let j = 0; j < i; j++) if (members[i]!.key.value === members[j]!.key.value) return true;
  }
  return false;
}

/** The value `JSON.parse` would return for the text this node came from. */
export function toValue(node: JsonNode): unknown {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'number':
      return node.value;
    case 'string':
      return node.value;
    case 'array':
      return node.items.map(toValue);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const { key, value } of node.members) {
        // Assigning "__proto__" would set the prototype; JSON.parse makes it an own key.
        if (key.value === '__proto__') {
          Object.defineProperty(out, '__proto__', {
            value: toValue(value),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else out[key.value] = toValue(value);
      }
      return out;
    }
  }
}

/**
 * A node for a JavaScript value (no source text, so all offsets are 0). Numbers get the lexeme
 * `JSON.stringify` would write, so `2.5` reads as a float and `25` as an integer everywhere.
 * Returns `undefined` for a value that is not JSON.
 */
export function fromValue(value: unknown): JsonNode | undefined {
  const span = { start: 0, end: 0 };
  switch (typeof value) {
    case 'boolean':
      return { kind: 'literal', value, ...span };
    case 'number':
      return { kind: 'number', text: Object.is(value, -0) ? '-0' : String(value), value, ...span };
    case 'string':
      return { kind: 'string', value, escaped: false, plain: isPlain(value), ...span };
    case 'object': {
      if (value === null) return { kind: 'literal', value: null, ...span };
      if (Array.isArray(value)) {
        const items: JsonNode[] = [];
        for (const item of value as unknown[]) {
          const node = fromValue(item);
          if (node === undefined) return undefined;
          items.push(node);
        }
        return { kind: 'array', items, ...span };
      }
      const members: JsonMember[] = [];
      for (const [key, item] of Object.entries(value)) {
        const node = fromValue(item);
        if (node === undefined) return undefined;
        members.push({
          key: { kind: 'string', value: key, escaped: false, plain: isPlain(key), ...span },
          value: node,
        });
      }
      return { kind: 'object', members, ...span };
    }
    default:
      return undefined;
  }
}
