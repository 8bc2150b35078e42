/**
 * What `hash` prints for one input: the `--json` object (the CLI contract) and the text a
 * person reads.
 */
import {
  LANGUAGES,
  TRAPS,
  type Analysis,
  type Diagnostic,
  type Language,
  type Rendering,
  type SdkEffect,
} from '../../canonical/node.js';

const EVIDENCE_NOTE: Record<Rendering['evidence'], string> = {
  measured: '',
  reference: '',
  numbers: '  (numbers measured; strings modelled on Jackson)',
  documented: '  (modelled from documentation)',
};

/** The `--json` / `--jsonl` object for one input. */
export interface HashReport {
  canonical: string | null;
  args_hash: string;
  diagnostics: Diagnostic[];
  languages: Record<Language, { text: string | null; args_hash: string }>;
}

/** The machine-readable report: exactly the keys the CLI contract names. */
export function toReport(analysis: Analysis): HashReport {
  const languages = {} as HashReport['languages'];
  for (const language of LANGUAGES) {
    const { text, argsHash } = analysis.languages[language];
    languages[language] = { text, args_hash: argsHash };
  }
  return {
    canonical: analysis.canonical,
    args_hash: analysis.argsHash,
    diagnostics: analysis.diagnostics,
    languages,
  };
}

/** The report for a person: canonical form, hash, diagnostics, then each language. */
export function formatReport(analysis: Analysis): string {
  const lines = [
    `canonical  ${analysis.canonical ?? `(none: ${analysis.failure ?? 'unrepresentable'})`}`,
    `args_hash  ${analysis.argsHash}`,
    '',
  ];

  if (analysis.diagnostics.length === 0) lines.push('diagnostics: none');
  else {
    lines.push('diagnostics:');
    for (const d of analysis.diagnostics) {
      const where = d.path === '' ? 'top level' : d.path;
      lines.push(
        `  ${d.severity.padEnd(7)} ${d.code} at ${where} (line ${d.line}, column ${d.column})`,
      );
      lines.push(`          ${d.message}`);
      for (const [effect, sdks] of groupByEffect(d.affects))
        lines.push(`          ${sdks.join(', ')}: ${effect}`);
      if (d.more) lines.push(`          … and ${d.more} more like this`);
    }
  }

  lines.push('', 'languages (default encoder of each):');
  for (const language of LANGUAGES) {
    const r = analysis.languages[language];
    const verdict =
      r.text === null
        ? `cannot hash: ${r.failure ?? 'fails'}`
        : r.text === analysis.canonical
          ? 'same as canonical'
          : 'differs';
    lines.push(`  ${language.padEnd(7)} ${r.argsHash}  ${verdict}${EVIDENCE_NOTE[r.evidence]}`);
    if (r.text !== null && r.text !== analysis.canonical) {
      lines.push(`          ${r.text}`);
      for (const hit of r.traps) lines.push(`          - ${TRAPS[hit.trap]}: ${hit.example}`);
    }
  }
  return lines.join('\n') + '\n';
}

/** SDKs that share an effect, listed once together, in the order they first appear. */
function groupByEffect(affects: SdkEffect[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { sdk, effect } of affects) {
    const sdks = groups.get(effect);
    if (sdks) sdks.push(sdk);
    else groups.set(effect, [sdk]);
  }
  return groups;
}
