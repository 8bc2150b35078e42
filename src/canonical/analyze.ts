/**
 * Everything the Playground and `mcpulse-devtools hash` show for one pasted text: the value,
 * its canonical form and hash (the TypeScript SDK's), the diagnostics, what each MCPulse SDK
 * really sends, and — the other view — what each language's usual encoder would send if you
 * hashed the arguments yourself.
 */
import { toValue, type JsonNode } from './ast.js';
import { canonicalize, UnrepresentableError } from './canonicalize.js';
import { diagnose, type Diagnostic } from './diagnostics.js';
import { hashText, memoizeHasher, UNHASHABLE, type Hasher } from './hash.js';
import { parseJson } from './parse.js';
import { renderSdks, SDKS_DIVERGE_ON, sdksAgreeing, type SdkRendering } from './sdks/render.js';
import { sha256Hex } from './sha256.js';
import type { Sdk } from './diagnostics.js';
import { renderLanguages, type Rendering } from './traps/explain.js';
import type { Language } from './traps/languages.js';

/** One pasted text, analysed. */
export interface Analysis {
  /** What `JSON.parse` gives (undefined only when nesting is too deep to build it). */
  value: unknown;
  ast: JsonNode;
  /** How deep arrays and objects nest. */
  depth: number;
  /**
   * The canonical form (RFC 8785 as the TypeScript SDK writes it, lone surrogates as `\udxxx`),
   * or `null` when it has none (then `argsHash` is 000000000000).
   */
  canonical: string | null;
  argsHash: string;
  /** Why there is no canonical form, when there is none. */
  failure?: string;
  diagnostics: Diagnostic[];
  /** What each MCPulse SDK sends, as its published code hashes (TypeScript first). */
  sdks: Record<Sdk, SdkRendering>;
  /** If you hash it yourself: what each language's usual encoder would send. */
  languages: Record<Language, Rendering>;
}

/**
 * Parses and analyses one JSON text. `hasher` defaults to the pure-TS SHA-256 (browser-safe);
 * Node callers pass node:crypto's (`nodeSha256Hex` from `./node.js`).
 * @throws {JsonSyntaxError} when `text` is not JSON.
 */
export function analyze(text: string, hasher: Hasher = sha256Hex): Analysis {
  const { ast, depth } = parseJson(text);
  const hash = memoizeHasher(hasher);
  let value: unknown;
  let canonical: string | null = null;
  let failure: string | undefined;
  let tooDeep = false;
  try {
    value = toValue(ast);
    canonical = canonicalize(value);
  } catch (error) {
    // Both the value and its canonical form are built recursively, like any JavaScript SDK's:
    // past a few thousand levels the stack runs out, and TS cannot hash it either.
    tooDeep =
      error instanceof RangeError ||
      (error instanceof UnrepresentableError && /too deep/.test(error.message));
    if (error instanceof UnrepresentableError) failure = error.message;
    else if (error instanceof RangeError) failure = 'nesting too deep to canonicalize';
    else throw error;
  }
  const diagnostics = diagnose(ast, text, depth);
  const agree = !diagnostics.some((d) => SDKS_DIVERGE_ON.has(d.code));
  const sdks =
    agree && canonical !== null
      ? sdksAgreeing(canonical, hashText(canonical, hash))
      : renderSdks(ast, hash);
  // The canonical form is the TypeScript SDK's; where the JavaScript stack gave out, so does it.
  const { failure: _modelled, ...ts } = sdks.ts;
  sdks.ts = {
    ...ts,
    text: canonical,
    argsHash: canonical === null ? UNHASHABLE : hashText(canonical, hash),
    ...(canonical === null ? { failure: failure ?? 'cannot canonicalize' } : {}),
  };
  if (tooDeep) {
    diagnostics
      .find((d) => d.code === 'nesting-depth')
      ?.affects.unshift({
        sdk: 'ts',
        effect: 'the JavaScript stack runs out first: cannot hash, 000000000000',
      });
  }
  return {
    value,
    ast,
    depth,
    canonical,
    argsHash: canonical === null ? UNHASHABLE : hashText(canonical, hash),
    ...(failure === undefined ? {} : { failure }),
    diagnostics,
    sdks,
    languages: renderLanguages(ast, hash),
  };
}
