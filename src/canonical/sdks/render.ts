/**
 * What each MCPulse SDK sends for one input: its model (`./catalogue.js`) run on the parsed
 * text, with the ways its bytes part from the TypeScript SDK's noted trap by trap.
 */
import type { JsonNode } from '../ast.js';
import type { Sdk } from '../diagnostics.js';
import { hashText, UNHASHABLE, type Hasher } from '../hash.js';
import { sha256Hex } from '../sha256.js';
import type { TrapHit } from '../traps/catalogue.js';
import { encodeAs } from '../traps/encode.js';
import { EncodeFailure, TrapNotes } from '../traps/notes.js';
import { SDK_MODELS, type SdkModel } from './catalogue.js';
import {
  astHasLoneHighSurrogate,
  HIGH_SURROGATE_REFUSAL,
  parserRefusesLoneSurrogate,
} from './parser-refusal.js';

/** What one SDK sends for one input. */
export interface SdkRendering {
  id: Sdk;
  name: string;
  version: string;
  evidence: SdkModel['evidence'];
  label: string;
  /** The text it hashes, or `null` where it cannot hash (then `argsHash` is 000000000000). */
  text: string | null;
  argsHash: string;
  /** How its text differs from the TypeScript SDK's, trap by trap. */
  traps: TrapHit[];
  /** Why it cannot hash, when `text` is null. */
  failure?: string;
  /**
   * `false` when nothing is sent at all: the host's parser refused the request before the SDK
   * saw a call (then `argsHash` is 000000000000 only as a placeholder — no payload carries it).
   */
  sent: boolean;
  /** The entry point this rendering models, for an SDK with several (PHP: `assoc`). */
  mode?: SdkModel['mode'];
  /** The same input through the SDK's other entry points (PHP: `raw`). */
  otherModes?: (Omit<SdkRendering, 'otherModes' | 'mode'> & {
    mode: NonNullable<SdkModel['mode']>;
  })[];
}

/** What `model`'s SDK sends for `ast`, through each of its entry points. */
export function renderSdk(
  model: SdkModel,
  ast: JsonNode,
  hasher: Hasher = sha256Hex,
): SdkRendering {
  const rendering = renderOne(model, ast, hasher);
  if (model.mode) rendering.mode = model.mode;
  if (model.otherModes) {
    rendering.otherModes = model.otherModes.map(({ style, refusedByParser, ...mode }) => {
      const {
        otherModes: _o,
        mode: _m,
        ...other
      } = renderOne({ ...model, style, refusedByParser, otherModes: undefined }, ast, hasher);
      return { ...other, mode };
    });
  }
  return rendering;
}

function renderOne(model: SdkModel, ast: JsonNode, hasher: Hasher): SdkRendering {
  const notes = new TrapNotes();
  let text: string | null;
  let failure: string | undefined;
  let sent = true;
  if (ast.kind === 'literal' && ast.value === null) {
    if (model.nullArguments === 'absent') notes.hit('null-as-absent', 'null → {}');
    text = model.nullArguments === 'null' ? 'null' : '{}';
  } else {
    try {
      text = encodeAs(model.style, ast, notes);
    } catch (error) {
      if (!(error instanceof EncodeFailure)) throw error;
      text = null;
      failure = error.message;
      const cause = error.failed;
      if (cause === 'depth' && model.refusedByParser?.includes('depth')) {
        sent = false;
        failure = `not sent: its parser stops at depth ${model.style.maxDepth}, so the request never parses and no call is recorded`;
      } else if (cause === 'lone-surrogate') {
        const loneHigh = astHasLoneHighSurrogate(ast);
        if (parserRefusesLoneSurrogate(model.refusedByParser, loneHigh)) {
          sent = false;
          failure = model.refusedByParser?.includes('lone-surrogate')
            ? `not sent: ${failure}`
            : HIGH_SURROGATE_REFUSAL;
        }
      }
    }
  }
  const rendering: SdkRendering = {
    id: model.id,
    name: model.name,
    version: model.version,
    evidence: model.evidence,
    label: model.label,
    text,
    argsHash: text === null ? UNHASHABLE : hashText(text, hasher),
    traps: notes.list(),
    sent,
  };
  if (failure !== undefined) rendering.failure = failure;
  return rendering;
}

/** Every SDK on `ast`, in `SDK_MODELS` order (TypeScript first). */
export function renderSdks(ast: JsonNode, hasher: Hasher = sha256Hex): Record<Sdk, SdkRendering> {
  const out = {} as Record<Sdk, SdkRendering>;
  for (const model of SDK_MODELS) out[model.id] = renderSdk(model, ast, hasher);
  return out;
}

/**
 * Every SDK's rendering when each writes exactly the canonical text — what {@link renderSdks}
 * gives for any input without a diagnostic in {@link SDKS_DIVERGE_ON}, without running nine
 * encoders (the Playground analyses on every keystroke, `hash --jsonl` per line).
 */
export function sdksAgreeing(canonical: string, argsHash: string): Record<Sdk, SdkRendering> {
  const out = {} as Record<Sdk, SdkRendering>;
  for (const m of SDK_MODELS) {
    out[m.id] = {
      id: m.id,
      name: m.name,
      version: m.version,
      evidence: m.evidence,
      label: m.label,
      text: canonical,
      argsHash,
      traps: [],
      sent: true,
      ...(m.mode ? { mode: m.mode } : {}),
      ...(m.otherModes
        ? {
            otherModes: m.otherModes.map(({ id, entry }) => ({
              id: m.id,
              name: m.name,
              version: m.version,
              evidence: m.evidence,
              label: m.label,
              text: canonical,
              argsHash,
              traps: [],
              sent: true,
              mode: { id, entry },
            })),
          }
        : {}),
    };
  }
  return out;
}

/**
 * The diagnostics on which some SDK model parts from the TypeScript SDK. Every model is RFC 8785
 * over doubles with UTF-16 key order and the last duplicate winning, so without one of these —
 * a lone surrogate, an empty or list-like object (PHP), nesting past 64 (.NET, the shallowest),
 * a number that overflows, null arguments — every SDK writes the canonical text.
 */
export const SDKS_DIVERGE_ON: ReadonlySet<string> = new Set([
  'lone-surrogate',
  'php-array',
  'nesting-depth',
  'number-overflow',
  'top-level-null',
]);
