/**
 * The playground's compare mode primed with two argument texts: the hashes ride in the query
 * (`a`, `b`, what each text should produce) and the texts in the fragment (`#ta=…&tb=…`), which
 * the browser never sends to a server — the texts stay in this page.
 */
export interface CompareSide {
  hash: string;
  /** The argument text; omitted when only the hash is known (SDK calls). */
  text?: string | null;
}

/** `/playground?mode=compare&tool=…&a=…&b=…#ta=…&tb=…`. */
export function compareTextsHref(tool: string, a: CompareSide, b: CompareSide): string {
  const href = `/playground?${new URLSearchParams({ mode: 'compare', tool, a: a.hash, b: b.hash }).toString()}`;
  const texts = new URLSearchParams();
  if (a.text) texts.set('ta', a.text);
  if (b.text) texts.set('tb', b.text);
  const fragment = texts.toString();
  return fragment ? `${href}#${fragment}` : href;
}

/** The texts a compare link carried in its fragment (`''` for a side it did not fill). */
export function compareTextsOf(fragment: string): { a: string; b: string } {
  const p = new URLSearchParams(fragment.replace(/^#/, ''));
  return { a: p.get('ta') ?? '', b: p.get('tb') ?? '' };
}
