/**
 * The playground's diagnostics grouped by outcome: effects that read the same are one line,
 * and a diagnostic's severity rises with how many languages it splits.
 */
import type { Diagnostic } from '../../../../src/canonical/index';

/** A diagnostic's effects with equal text merged: `[["Python", "Go"], "writes 1e+21"]`. */
export function mergeEffects(d: Diagnostic): { sdks: string[]; effect: string }[] {
  const byEffect = new Map<string, string[]>();
  for (const a of d.affects) byEffect.set(a.effect, [...(byEffect.get(a.effect) ?? []), a.sdk]);
  return [...byEffect.entries()].map(([effect, sdks]) => ({ sdks, effect }));
}

const RANK = { error: 0, warning: 1, info: 2 } as const;

/** At least this many languages hashing different bytes is a warning, whatever the rule said. */
export const WARN_FROM_LANGUAGES = 3;

/**
 * The severity shown: the rule's, raised to a warning when the input splits
 * {@link WARN_FROM_LANGUAGES} or more languages (1e21 differs in five; it is no mere note).
 */
export function shownSeverity(d: Diagnostic): Diagnostic['severity'] {
  const split = new Set(d.affects.map((a) => a.sdk)).size;
  if (d.severity === 'info' && split >= WARN_FROM_LANGUAGES) return 'warning';
  return d.severity;
}

/** Diagnostics worst first: shown severity, then how many languages they split. */
export function rankDiagnostics(ds: readonly Diagnostic[]): Diagnostic[] {
  return [...ds].sort(
    (a, b) =>
      RANK[shownSeverity(a)] - RANK[shownSeverity(b)] || b.affects.length - a.affects.length,
  );
}
