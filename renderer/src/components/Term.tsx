/**
 * Abbreviations and units in headers and labels, each explained on hover (and to screen
 * readers) from the one glossary in lib/format.ts.
 */
import { GLOSSARY } from '../lib/format';

export type Term = keyof typeof GLOSSARY;

/** `FCS`, `p95`, … with what it stands for as its title. */
export function Abbr({ term, children }: { term: Term; children?: string }) {
  return (
    <abbr className="term" title={GLOSSARY[term]}>
      {children ?? term}
    </abbr>
  );
}

/** A column's unit after its name: `Avg response (tok)`, the token rule on hover. */
export function Unit({ unit }: { unit: 'tok' | '$' | 'ms' | 'units' }) {
  return (
    <span className="unit">
      {' ('}
      {unit === 'tok' ? <Abbr term="tok" /> : unit}
      {')'}
    </span>
  );
}
