/**
 * Diffs of each language's rendering against the canonical form, computed in the worker with
 * the analysis and kept here for DiffText: on a large input a diff costs the main thread
 * hundreds of milliseconds, which the worker now spends instead.
 */
import { diffText, type Analysis } from '../../../../src/canonical/index';

export type DiffParts = ReturnType<typeof diffText>;

const cache = new Map<string, DiffParts>();
/** Enough for the current analysis and the previous one. */
const MAX_ENTRIES = 32;

const keyOf = (canonical: string, text: string): string => `${canonical}\u0000${text}`;

/** Every language's diff for an analysis (run in the worker). */
export function diffsOf(analysis: Analysis): Record<string, DiffParts> {
  const out: Record<string, DiffParts> = {};
  if (analysis.canonical === null) return out;
  for (const [lang, r] of Object.entries(analysis.languages))
    if (r.text !== null && r.text !== analysis.canonical)
      out[lang] = diffText(analysis.canonical, r.text);
  return out;
}

/** Keeps the worker's diffs for the analysis they belong to. */
export function rememberDiffs(analysis: Analysis, diffs: Record<string, DiffParts>): void {
  if (analysis.canonical === null) return;
  for (const [lang, parts] of Object.entries(diffs)) {
    const text = analysis.languages[lang as keyof Analysis['languages']]?.text;
    if (text == null) continue;
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(keyOf(analysis.canonical, text), parts);
  }
}

/** The diff of `text` against `canonical`: the worker's if it made one, else computed here. */
export function diffOf(canonical: string, text: string): DiffParts {
  return cache.get(keyOf(canonical, text)) ?? diffText(canonical, text);
}
