/**
 * Side-by-side highlighting: which characters differ between the canonical form and what a
 * language sent. A character-level Myers diff (the O(ND) algorithm git uses), on code points
 * so an emoji is never split, after trimming the common prefix and suffix — encoder outputs
 * usually differ in a handful of places, so D stays small and this stays fast.
 */

/** A run of characters: in both texts, only in the first (`delete`), or only in the second (`insert`). */
export interface DiffPart {
  op: 'equal' | 'delete' | 'insert';
  text: string;
}

/**
 * The parts that turn `a` into `b`. Past `maxEdits` differing characters the middle is
 * reported as one delete and one insert rather than searched further.
 */
export function diffText(a: string, b: string, maxEdits = 2000): DiffPart[] {
  const x = Array.from(a);
  const y = Array.from(b);
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let endX = x.length;
  let endY = y.length;
  while (endX > start && endY > start && x[endX - 1] === y[endY - 1]) {
    endX--;
    endY--;
  }
  const middleX = x.slice(start, endX);
  const middleY = y.slice(start, endY);
  const middle = myers(middleX, middleY, maxEdits) ?? [
    ...middleX.map((text) => ({ op: 'delete' as const, text })),
    ...middleY.map((text) => ({ op: 'insert' as const, text })),
  ];
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string) => {
    if (text === '') return;
    const last = parts.at(-1);
    if (last?.op === op) last.text += text;
    else parts.push({ op, text });
  };
  push('equal', x.slice(0, start).join(''));
  for (const part of middle) push(part.op, part.text);
  push('equal', x.slice(endX).join(''));
  return parts;
}

/** Myers' shortest edit script, one part per character; undefined past `maxEdits`. */
function myers(x: string[], y: string[], maxEdits: number): DiffPart[] | undefined {
  const n = x.length;
  const m = y.length;
  const limit = Math.min(n + m, maxEdits);
  const offset = limit + 1;
  // v[offset + k]: the furthest x reached on diagonal k (y = x - k).
  const v = new Int32Array(2 * offset + 1);
  // trace[d]: the v window [-(d+1), d+1] as it stood before step d, for the walk back.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
      let i = down ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let j = i - k;
      while (i < n && j < m && x[i] === y[j]) {
        i++;
        j++;
      }
      v[offset + k] = i;
      if (i >= n && j >= m) return walkBack(trace, x, y, d);
    }
  }
  return undefined;
}

function walkBack(trace: Int32Array[], x: string[], y: string[], edits: number): DiffPart[] {
  const out: DiffPart[] = [];
  let i = x.length;
  let j = y.length;
  for (let d = edits; d > 0; d--) {
    const before = trace[d]!;
    const at = (k: number) => before[k + d + 1]!;
    const k = i - j;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevI = at(prevK);
    const prevJ = prevI - prevK;
    while (i > prevI + (down ? 0 : 1) && j > prevJ + (down ? 1 : 0)) {
      out.push({ op: 'equal', text: x[--i]! });
      j--;
    }
    if (down) out.push({ op: 'insert', text: y[--j]! });
    else out.push({ op: 'delete', text: x[--i]! });
  }
  while (i > 0 && j > 0) {
    out.push({ op: 'equal', text: x[--i]! });
    j--;
  }
  return out.reverse();
}
