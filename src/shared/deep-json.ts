/**
 * JSON for values of any depth (pure). `JSON.parse` is iterative in V8, but `JSON.stringify`,
 * and every recursive walker, overflows the stack a few thousand levels down ("Maximum call
 * stack size exceeded"): a hostile MCP server's 10,000-deep answer made `GET /api/calls/:id`
 * answer 500 and blanked the page that showed it (issue 40). Everything here walks with an
 * explicit stack, so depth costs memory, never stack frames. The server, the proxy and the
 * renderer share it.
 */

/** Levels of pretty-printed JSON the dashboard shows before it says how many more there are. */
export const SHOWN_JSON_DEPTH = 32;

/**
 * How deep a JSON text nests: 0 for a scalar, 1 for `[]` or `{"a":1}`, 2 for `[[1]]`. Counts
 * brackets outside strings, so it also measures a cut (truncated) body. One pass, no parse.
 */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** The keys JSON.stringify writes for `v`: array indexes, or own enumerable keys. */
function entriesOf(v: object): { keys: string[] | null; length: number } {
  if (Array.isArray(v)) return { keys: null, length: v.length };
  const keys = Object.keys(v).filter((k) => {
    const x = (v as Record<string, unknown>)[k];
    return x !== undefined && typeof x !== 'function' && typeof x !== 'symbol';
  });
  return { keys, length: keys.length };
}

/** How deep a parsed JSON value nests, counted as {@link jsonTextDepth} counts its text. */
export function jsonValueDepth(value: unknown): number {
  if (!isContainer(value)) return 0;
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (d > max) max = d;
    for (const inner of Object.values(v as object))
      if (isContainer(inner)) stack.push([inner, d + 1]);
  }
  return max;
}

/** A JSON scalar's text as JSON.stringify writes it (`undefined` in an array is `null`). */
function scalarText(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  return 'null';
}

interface Frame {
  value: Record<string, unknown> | unknown[];
  keys: string[] | null;
  length: number;
  next: number;
  depth: number;
}

/** Options for {@link writeJson}. */
interface WriteOptions {
  /** Spaces per level; 0 for compact text. */
  indent: number;
  /** Containers at this depth with anything inside are written as `cut(value)` instead. */
  maxDepth: number;
  cut: (value: object) => string;
}

/** The walker both serialisers use: JSON.stringify's output, with an explicit stack. */
function writeJson(value: unknown, o: WriteOptions): string {
  const out: string[] = [];
  const newline = (depth: number) => (o.indent > 0 ? '\n' + ' '.repeat(o.indent * depth) : '');
  const colon = o.indent > 0 ? ': ' : ':';
  const stack: Frame[] = [];
  /** Writes a scalar, an empty container, a cut container, or opens a frame. */
  const begin = (v: unknown, depth: number): void => {
    if (isContainer(v) && typeof (v as { toJSON?: unknown }).toJSON === 'function')
      v = (v as { toJSON: () => unknown }).toJSON();
    if (!isContainer(v)) return void out.push(scalarText(v));
    const { keys, length } = entriesOf(v);
    const open = keys === null ? '[' : '{';
    if (length === 0) return void out.push(keys === null ? '[]' : '{}');
    if (depth >= o.maxDepth) return void out.push(o.cut(v));
    out.push(open);
    stack.push({ value: v as Frame['value'], keys, length, next: 0, depth: depth + 1 });
  };
  begin(value, 0);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.next === f.length) {
      stack.pop();
      out.push(newline(f.depth - 1) + (f.keys === null ? ']' : '}'));
      continue;
    }
    const i = f.next++;
    out.push((i > 0 ? ',' : '') + newline(f.depth));
    if (f.keys === null) begin((f.value as unknown[])[i], f.depth);
    else {
      const key = f.keys[i]!;
      out.push(JSON.stringify(key) + colon);
      begin((f.value as Record<string, unknown>)[key], f.depth);
    }
  }
  return out.join('');
}

/**
 * `JSON.stringify(value)` for a value of any depth: the native call when it copes, the same
 * text from an explicit stack when it overflows. For data (what JSON.parse makes); `undefined`
 * at the top gives `'null'` rather than `undefined`.
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return writeJson(value, { indent: 0, maxDepth: Infinity, cut: () => 'null' });
}

/** What {@link prettyJsonCapped} made. */
export interface CappedJson {
  text: string;
  /** How many levels below the cap were left out (0: everything is shown). */
  hiddenLevels: number;
  /** The value's whole depth. */
  depth: number;
}

/** The marker that stands in for a container below the cap. */
export const deeperLevelsText = (n: number): string =>
  `…${n.toLocaleString('en-US')} deeper level${n === 1 ? '' : 's'} not shown`;

/**
 * `JSON.stringify(value, null, indent)` down to `maxDepth` levels; a container deeper than that
 * is written as a string marker saying how many levels it holds ({@link deeperLevelsText}), so a
 * 10,000-deep value reads as its first levels and one line saying what is left out.
 */
export function prettyJsonCapped(
  value: unknown,
  maxDepth = SHOWN_JSON_DEPTH,
  indent = 2,
): CappedJson {
  let hidden = 0;
  const text = writeJson(value, {
    indent,
    maxDepth,
    cut: (v) => {
      const n = jsonValueDepth(v);
      if (n > hidden) hidden = n;
      return JSON.stringify(deeperLevelsText(n));
    },
  });
  return {
    text,
    hiddenLevels: hidden,
    depth: hidden > 0 ? maxDepth + hidden : jsonValueDepth(value),
  };
}
