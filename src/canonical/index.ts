/**
 * The canonical JSON engine — browser entry. Pure TypeScript, no Node imports: the renderer's
 * Playground imports this. Node code imports `./node.js` instead, which re-exports all of this
 * with `argsHash`/`hashText` bound to node:crypto.
 *
 * - `canonicalize`, `argsHash`, `utf16Length`: the wire rules (wire-format §3).
 * - `parseJson`, `analyze`, `diagnose`: a pasted text, its diagnostics, and every SDK's output.
 * - `SDK_MODELS`, `renderSdks`: each MCPulse SDK as its published code hashes.
 * - `explainHash`, `renderLanguages`, `VARIANTS`, `TRAPS`: the hand-rolled encoder traps ("if you
 *   hash it yourself") and which SDK or encoder reproduces a hash.
 * - `diffText`: which characters differ between two renderings, for highlighting.
 */
export {
  canonicalize,
  writeCanonical,
  serializeNumber,
  serializeString,
  UnrepresentableError,
} from './canonicalize.js';
export {
  argsHash,
  hashText,
  canonicalOrNull,
  isArgsHash,
  sameHash,
  ARGS_HASH_LENGTH,
  EMPTY_ARGS_HASH,
  NULL_ARGS_HASH,
  UNHASHABLE,
  type Hasher,
} from './hash.js';
export { sha256, sha256Hex, utf8Encode, toHex } from './sha256.js';
export { utf16Length, utf8Length } from './utf16.js';
export { parseJson, JsonSyntaxError, type ParsedJson } from './parse.js';
export {
  toValue,
  fromValue,
  effectiveMembers,
  type JsonNode,
  type JsonNumber,
  type JsonString,
  type JsonArray,
  type JsonObject,
  type JsonMember,
  type JsonLiteral,
} from './ast.js';
export { analyze, type Analysis } from './analyze.js';
export {
  diagnose,
  DIAGNOSTIC_CODES,
  type Diagnostic,
  type DiagnosticCode,
  type Sdk,
  type SdkEffect,
} from './diagnostics.js';
export { DOUBLE_FORMATS, decompose } from './numbers.js';
export { TRAPS, type TrapId, type TrapHit } from './traps/catalogue.js';
export {
  LANGUAGES,
  VARIANTS,
  DEFAULT_VARIANTS,
  variant,
  type Evidence,
  type Language,
  type Variant,
} from './traps/languages.js';
export {
  render,
  renderLanguages,
  explainHash,
  type Rendering,
  type Explanation,
} from './traps/explain.js';
export { encodeAs, compareCodePoints, type Style } from './traps/encode.js';
export { SDK_MODELS, SDK_IDS, sdkModel, type SdkModel, type SdkSource } from './sdks/catalogue.js';
export {
  renderSdk,
  renderSdks,
  sdksAgreeing,
  SDKS_DIVERGE_ON,
  type SdkRendering,
} from './sdks/render.js';
export { diffText, type DiffPart } from './diff.js';
