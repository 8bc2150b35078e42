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

/** The texts an analysis shows beside the canonical form: each SDK's (`sdk:<id>`), each language's. */
function renderedTexts(analysis: Analysis): [string, string | null][] {
  return [
    ...Object.entries(analysis.sdks).map(([id, r]): [string, string | null] => [
      `sdk:${id}`,
      r.text,
    ]),
    ...Object.entries(analysis.languages).map(([lang, r]): [string, string | null] => [
      lang,
      r.text,
    ]),
  ];
}

/** Every SDK's and every language's diff for an analysis (run in the worker). */
export function diffsOf(analysis: Analysis): Record<string, DiffParts> {
  const out: Record<string, DiffParts> = {};
  if (analysis.canonical === null) return out;
  for (const [key, text] of renderedTexts(analysis))
    if (text !== null && text !== analysis.canonical && !(key in out))
      out[key] = diffText(analysis.canonical, text);
  return out;
}

/** Keeps the worker's diffs for the analysis they belong to. */
export function rememberDiffs(analysis: Analysis, diffs: Record<string, DiffParts>): void {
  if (analysis.canonical === null) return;
  const texts = new Map(renderedTexts(analysis));
  for (const [key, parts] of Object.entries(diffs)) {
    const text = texts.get(key);
    if (text == null) continue;
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(keyOf(analysis.canonical, text), parts);
  }
}

/** The diff of `text` against `canonical`: the worker's if it made one, else computed here. */
export function diffOf(canonical: string, text: string): DiffParts {
  return cache.get(keyOf(canonical, text)) ?? diffText(canonical, text);
}
