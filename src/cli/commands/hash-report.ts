/**
 * What `hash` prints for one input: the `--json` object (the CLI contract) and the text a
 * person reads.
 */
import {
  LANGUAGES,
  SDK_IDS,
  TRAPS,
  type Analysis,
  type Diagnostic,
  type Language,
  type Rendering,
  type Sdk,
  type SdkEffect,
} from '../../canonical/node.js';

const EVIDENCE_NOTE: Record<Rendering['evidence'], string> = {
  measured: '',
  reference: '',
  source: '',
  docs: '  (no public source: modelled from docs)',
  numbers: '  (numbers measured; strings modelled on Jackson)',
  documented: '  (modelled from documentation)',
};

/** What one encoder (an SDK's model or a hand-rolled one) sends, against the canonical form. */
interface EncoderResult {
  text: string | null;
  argsHash: string;
  failure?: string;
  /** `false`: no payload at all (the host's parser refused the request). */
  sent?: boolean;
  evidence: Rendering['evidence'];
  traps: Rendering['traps'];
}

/** The human report's lines for one encoder: its hash and verdict, and how it differs. */
function encoderLines(
  id: string,
  r: EncoderResult,
  canonical: string | null,
  source: string,
): string[] {
  const differs = r.text !== null && r.text !== canonical;
  if (r.sent === false)
    return [`  ${id.padEnd(7)} (nothing)     ${r.failure ?? 'not sent'}${source}`];
  const verdict =
    r.text === null
      ? `cannot hash, sends 000000000000: ${r.failure ?? 'fails'}`
      : differs
        ? 'differs'
        : 'same as canonical';
  const lines = [
    `  ${id.padEnd(7)} ${r.argsHash}  ${verdict}${source}${EVIDENCE_NOTE[r.evidence]}`,
  ];
  if (differs) {
    lines.push(`          ${r.text}`);
    for (const hit of r.traps) lines.push(`          - ${TRAPS[hit.trap]}: ${hit.example}`);
  }
  return lines;
}

/** One SDK in the `--json` report. */
export interface SdkReport {
  /** The package and the version its model was read from. */
  sdk: string;
  version: string;
  /** `source`: read from the SDK's public code; `docs`: no public source. */
  evidence: 'source' | 'docs';
  text: string | null;
  /** `000000000000` also when nothing is sent (then `sent` is false). */
  args_hash: string;
  /** `false` when no call payload is sent at all: the host's parser refused the request. */
  sent: boolean;
  /** The entry point modelled, for an SDK with several (PHP: `assoc`). */
  mode?: string;
  /** The SDK's other entry points on the same input (PHP: `raw`, Hashing::argsHashRaw). */
  other_modes?: {
    mode: string;
    entry: string;
    text: string | null;
    args_hash: string;
    sent: boolean;
  }[];
}

/** The `--json` / `--jsonl` object for one input. */
export interface HashReport {
  canonical: string | null;
  args_hash: string;
  diagnostics: Diagnostic[];
  /** What each MCPulse SDK sends, as its published code hashes (`ts` first). */
  sdks: Record<Sdk, SdkReport>;
  /** If you hash it yourself: each language's usual encoder (the trap model). */
  languages: Record<Language, { text: string | null; args_hash: string }>;
}

/** The machine-readable report: exactly the keys the CLI contract names. */
export function toReport(analysis: Analysis): HashReport {
  const sdks = {} as HashReport['sdks'];
  for (const id of SDK_IDS) {
    const { name, version, evidence, text, argsHash, sent, mode, otherModes } = analysis.sdks[id];
    sdks[id] = { sdk: name, version, evidence, text, args_hash: argsHash, sent };
    if (mode) sdks[id].mode = mode.id;
    if (otherModes)
      sdks[id].other_modes = otherModes.map((o) => ({
        mode: o.mode.id,
        entry: o.mode.entry,
        text: o.text,
        args_hash: o.argsHash,
        sent: o.sent,
      }));
  }
  const languages = {} as HashReport['languages'];
  for (const language of LANGUAGES) {
    const { text, argsHash } = analysis.languages[language];
    languages[language] = { text, args_hash: argsHash };
  }
  return {
    canonical: analysis.canonical,
    args_hash: analysis.argsHash,
    diagnostics: analysis.diagnostics,
    sdks,
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

  lines.push('', 'SDKs (what each MCPulse SDK sends, from its published code):');
  for (const id of SDK_IDS) {
    const r = analysis.sdks[id];
    const mode = r.mode ? ` — ${r.mode.id}: ${r.mode.entry}` : '';
    lines.push(...encoderLines(id, r, analysis.canonical, `  [${r.name} ${r.version}${mode}]`));
    for (const other of r.otherModes ?? [])
      lines.push(
        ...encoderLines(
          `${id}·${other.mode.id}`,
          other,
          analysis.canonical,
          `  [${other.mode.entry}]`,
        ),
      );
  }

  lines.push('', 'if you hash it yourself (the default JSON encoder of each language):');
  for (const language of LANGUAGES)
    lines.push(...encoderLines(language, analysis.languages[language], analysis.canonical, ''));
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
