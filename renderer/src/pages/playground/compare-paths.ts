/**
 * Which values differ between two argument objects, by path (`filters.🚀`, `ids[2]`): the
 * answer to "what did the model change between attempts" once the user pastes both texts.
 * Works on canonical texts, so key order and number spelling never count as a change.
 */

/** One difference at one path. */
export interface PathChange {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: string;
  after?: string;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function join(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  const part = IDENT.test(key) ? key : JSON.stringify(key);
  return base ? (IDENT.test(key) ? `${base}.${part}` : `${base}[${part}]`) : part;
}

/**
 * Leaves by path; an empty object or array is a leaf of its own. An explicit stack, not
 * recursion: a retry chain's arguments captured by the proxy may nest thousands deep (issue 40),
 * and the session page must not overflow the stack comparing them.
 */
function flatten(root: unknown, out: Map<string, string>): void {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, base] = stack.pop()!;
    if (Array.isArray(value) && value.length > 0) {
      value.forEach((v, i) => stack.push([v, join(base, i)]));
    } else if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
      for (const [k, v] of Object.entries(value)) stack.push([v, join(base, k)]);
    } else {
      out.set(base || '(root)', JSON.stringify(value));
    }
  }
}

/**
 * Differences between two canonical JSON texts, in path order; `null` when either text is not
 * JSON (a canonical text always is).
 */
export function pathChanges(canonicalA: string, canonicalB: string): PathChange[] | null {
  let a: unknown;
  let b: unknown;
  try {
    a = JSON.parse(canonicalA);
    b = JSON.parse(canonicalB);
  } catch {
    return null;
  }
  const fa = new Map<string, string>();
  const fb = new Map<string, string>();
  flatten(a, fa);
  flatten(b, fb);
  const paths = [...new Set([...fa.keys(), ...fb.keys()])].sort();
  const out: PathChange[] = [];
  for (const path of paths) {
    const x = fa.get(path);
    const y = fb.get(path);
    if (x === undefined) out.push({ path, kind: 'added', after: y });
    else if (y === undefined) out.push({ path, kind: 'removed', before: x });
    else if (x !== y) out.push({ path, kind: 'changed', before: x, after: y });
  }
  return out;
}
