/**
 * Runs both models on an input — the MCPulse SDKs as their code hashes, and the hand-rolled
 * encoders ("if you hash it yourself") — and says which reproduces a hash a port sent ("this is
 * what mcpulse-go sends", "this is what Python's json.dumps with ensure_ascii=True gives").
 */
import { toValue, type JsonNode } from '../ast.js';
import { canonicalize, UnrepresentableError } from '../canonicalize.js';
import { hashText, memoizeHasher, sameHash, UNHASHABLE, type Hasher } from '../hash.js';
import { parseJson } from '../parse.js';
import { SDK_MODELS } from '../sdks/catalogue.js';
import { renderSdk, type SdkRendering } from '../sdks/render.js';
import { sha256Hex } from '../sha256.js';
import { TRAPS, type TrapHit } from './catalogue.js';
import { encodeAs } from './encode.js';
import { EncodeFailure, TrapNotes } from './notes.js';
import {
  DEFAULT_VARIANTS,
  LANGUAGES,
  VARIANTS,
  type Evidence,
  type Language,
  type Variant,
} from './languages.js';

/** What one encoder (or one MCPulse SDK) makes of one input. */
export interface Rendering {
  /**
   * The variant id (`python`, `go-1.21`, …), one of the TypeScript baselines (`ts`, …), or an
   * MCPulse SDK as `sdk:<id>` (`sdk:go`).
   */
  id: string;
  language: Language | 'ts';
  label: string;
  /**
   * `reference`: the canonical form; `source`/`docs`: an MCPulse SDK modelled from its public
   * code or, without one, its docs; otherwise how a hand-rolled encoder's model is known.
   */
  evidence: Evidence | 'reference' | 'source' | 'docs';
  /** The text it would hash, or `null` where it would fail (then `argsHash` is 000000000000). */
  text: string | null;
  argsHash: string;
  /** How its text differs from the canonical form, trap by trap. */
  traps: TrapHit[];
  /** Why it fails, when `text` is null. */
  failure?: string;
}

/** What the model makes of one variant, SDK rules included: `null` arguments hash as `{}`. */
export function render(variant: Variant, ast: JsonNode, hasher: Hasher = sha256Hex): Rendering {
  const { id, language, label, evidence } = variant;
  const notes = new TrapNotes();
  let text: string | null;
  let failure: string | undefined;
  if (ast.kind === 'literal' && ast.value === null) {
    notes.hit('null-as-absent', 'null → {}');
    text = '{}';
  } else {
    try {
      text = encodeAs(variant.style, ast, notes);
    } catch (error) {
      if (!(error instanceof EncodeFailure)) throw error;
      text = null;
      failure = error.message;
    }
  }
  const argsHash = text === null ? UNHASHABLE : hashText(text, hasher);
  const rendering: Rendering = {
    id,
    language,
    label,
    evidence,
    text,
    argsHash,
    traps: notes.list(),
  };
  if (failure !== undefined) rendering.failure = failure;
  return rendering;
}

/** Each language's default encoder on `ast`, in `LANGUAGES` order. */
export function renderLanguages(
  ast: JsonNode,
  hasher: Hasher = sha256Hex,
): Record<Language, Rendering> {
  const out = {} as Record<Language, Rendering>;
  for (const language of LANGUAGES) out[language] = render(DEFAULT_VARIANTS[language], ast, hasher);
  return out;
}

/** The TypeScript baselines: RFC 8785 itself, and the two usual ways a port gets it wrong. */
function baselines(ast: JsonNode, hasher: Hasher): Rendering[] {
  const value = toValue(ast);
  let canonical: string | null = null;
  let failure = '';
  try {
    canonical = canonicalize(value);
  } catch (error) {
    if (!(error instanceof UnrepresentableError)) throw error;
    failure = error.message;
  }
  const ts = { language: 'ts' as const, evidence: 'reference' as const };
  const unsorted = canonical === null ? null : JSON.stringify(value);
  return [
    {
      ...ts,
      id: 'ts',
      label: 'RFC 8785 canonical form, as the TypeScript SDK (@mcpulse/sdk 0.1.6) writes it',
      text: canonical,
      argsHash: canonical === null ? UNHASHABLE : hashText(canonical, hasher),
      traps: [],
      ...(canonical === null ? { failure } : {}),
    },
    {
      ...ts,
      id: 'ts-unsorted',
      label: 'JSON.stringify(args) without sorting keys',
      text: unsorted,
      argsHash: unsorted === null ? UNHASHABLE : hashText(unsorted, hasher),
      traps: [{ trap: 'key-order-insertion', example: 'keys as JSON.parse left them' }],
    },
    {
      ...ts,
      id: 'absent',
      label: 'no arguments at all: the hash of {}',
      text: '{}',
      argsHash: hashText('{}', hasher),
      traps: [{ trap: 'null-as-absent', example: 'arguments dropped → {}' }],
    },
  ];
}

/** An SDK's rendering in the shape `explainHash` compares. */
function asRendering(r: SdkRendering): Rendering {
  const rendering: Rendering = {
    id: `sdk:${r.id}`,
    language: r.id,
    label: `${r.label}${r.evidence === 'docs' ? ' (no public source)' : ''}`,
    evidence: r.evidence,
    text: r.text,
    argsHash: r.argsHash,
    traps: r.traps,
  };
  if (r.failure !== undefined) rendering.failure = r.failure;
  return rendering;
}

/** Which encoders reproduce a hash, and the one-line answer to show. */
export interface Explanation {
  /** The hash as given. */
  hash: string;
  /** The RFC 8785 rendering: what a correct SDK sends. */
  canonical: Rendering;
  /** Whether the given hash is the canonical one. */
  correct: boolean;
  /** Every modelled encoder whose hash agrees with the given one, most specific first. */
  matches: Rendering[];
  /** One sentence: the verdict. */
  summary: string;
}

/**
 * Which encoder produced `hash` for `input` (a JSON text, or a parsed tree). Hashes are
 * compared on the shorter length, as SDKs may send 4–64 hex digits.
 * @throws {JsonSyntaxError} when `input` is text that is not JSON.
 */
export function explainHash(
  input: string | JsonNode,
  hash: string,
  hasher: Hasher = sha256Hex,
): Explanation {
  const ast = typeof input === 'string' ? parseJson(input).ast : input;
  hasher = memoizeHasher(hasher);
  const given = hash.trim().toLowerCase();
  const [canonical, ...others] = baselines(ast, hasher);
  // The SDKs first: a hash a real server sent is far likelier to be an SDK's than a port's.
  const sdks = SDK_MODELS.filter((m) => m.id !== 'ts').map((m) =>
    asRendering(renderSdk(m, ast, hasher)),
  );
  const renderings = [...sdks, ...VARIANTS.map((v) => render(v, ast, hasher)), ...others];
  const correct = sameHash(canonical!.argsHash, given);
  // A variant that merely agrees with the canonical form explains nothing when the hash is wrong.
  const matches = renderings
    .filter((r) => sameHash(r.argsHash, given) && (correct || r.text !== canonical!.text))
    .sort((a, b) => likelihood(a) - likelihood(b));
  return {
    hash: given,
    canonical: canonical!,
    correct,
    matches,
    summary: summarize(given, canonical!, correct, matches),
  };
}

/**
 * Where several encoders write the same bytes, name the likeliest first: an MCPulse SDK read
 * from its source, then one known from docs only, then a language's default encoder, then
 * measured alternatives, then documented ones, then the TypeScript mistakes. (The sort is
 * stable, so ties keep the languages' order.)
 */
function likelihood(r: Rendering): number {
  if (r.evidence === 'source') return 0;
  if (r.evidence === 'docs') return 1;
  if (r.language === 'ts') return 5;
  if (DEFAULT_VARIANTS[r.language].id === r.id) return 2;
  return r.evidence === 'documented' ? 4 : 3;
}

function summarize(
  hash: string,
  canonical: Rendering,
  correct: boolean,
  matches: Rendering[],
): string {
  if (correct && canonical.text === null) {
    return `${hash}: the TypeScript SDK cannot hash this input either (${canonical.failure ?? 'unrepresentable'}), so this SDK agrees`;
  }
  if (correct)
    return `${hash} is the canonical hash: this SDK agrees with the TypeScript SDK (RFC 8785) on this input`;
  if (hash === UNHASHABLE) {
    const failing = matches.filter((m) => m.failure).map((m) => `${m.label} (${m.failure})`);
    return failing.length > 0
      ? `000000000000 means the SDK could not hash these arguments; the model has this failing in: ${failing.join('; ')}`
      : '000000000000 means the SDK could not hash these arguments, though every modelled encoder can';
  }
  const best = matches[0];
  if (best === undefined) {
    return `no modelled encoder gives ${hash}; the canonical hash is ${canonical.argsHash} (${canonical.text ?? 'unhashable'})`;
  }
  const why = best.traps.map((t) => `${TRAPS[t.trap]} (${t.example})`).join('; ');
  const sends = best.id.startsWith('sdk:') ? 'sends' : 'gives';
  return `this is what ${best.label} ${sends}${why ? `: it ${why}` : ''}`;
}
