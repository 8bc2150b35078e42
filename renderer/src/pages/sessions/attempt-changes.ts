/**
 * What is known to have changed between two attempts of a retry chain. The arguments never
 * leave the SDK, so this is what can be said: whether their hash changed, how the outcome and
 * the response moved, how long the client waited, and which extra fields (sent beyond the
 * contract) changed value.
 */
import type { CallView } from '../../api/types';
import { isUnhashable } from '../../api/session-facts';

/** How an attempt's arguments compare with the previous attempt's, by hash. */
export type ArgsChange = 'first' | 'changed' | 'same' | 'unknown';

/** One change of an extra field between two attempts. */
export interface ExtraChange {
  key: string;
  /** `added`: only in this attempt; `removed`: only in the previous one. */
  kind: 'added' | 'removed' | 'changed';
  before?: string;
  after?: string;
}

/** One attempt of a chain, with what changed since the previous one. */
export interface Attempt {
  call: CallView;
  args: ArgsChange;
  /** Start-to-start delay since the previous attempt; null for the first. */
  delayMs: number | null;
  extras: ExtraChange[];
}

export function argsChange(prev: CallView | undefined, c: CallView): ArgsChange {
  if (!prev) return 'first';
  if (isUnhashable(prev) || isUnhashable(c)) return 'unknown';
  return prev.args_hash === c.args_hash ? 'same' : 'changed';
}

const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

/** Extra fields that differ between two attempts, in key order. */
export function extraChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): ExtraChange[] {
  const a = before ?? {};
  const b = after ?? {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const out: ExtraChange[] = [];
  for (const key of keys) {
    const inA = Object.hasOwn(a, key);
    const inB = Object.hasOwn(b, key);
    if (inA && !inB) out.push({ key, kind: 'removed', before: show(a[key]) });
    else if (!inA && inB) out.push({ key, kind: 'added', after: show(b[key]) });
    else if (show(a[key]) !== show(b[key]))
      out.push({ key, kind: 'changed', before: show(a[key]), after: show(b[key]) });
  }
  return out;
}

/** The attempts of a chain in order (calls missing from `byId` are skipped). */
export function attemptsOf(callIds: number[], byId: Map<number, CallView>): Attempt[] {
  const out: Attempt[] = [];
  let prev: CallView | undefined;
  for (const id of callIds) {
    const c = byId.get(id);
    if (!c) continue;
    out.push({
      call: c,
      args: argsChange(prev, c),
      delayMs: prev ? c.started_ms - prev.started_ms : null,
      // The first attempt lists what it sent, as additions to nothing.
      extras: extraChanges(prev ? prev.extra : null, c.extra),
    });
    prev = c;
  }
  return out;
}
