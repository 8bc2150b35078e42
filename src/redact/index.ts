/**
 * Redaction: credentials never reach the disk (issue 40, docs/reliability.md). The engine
 * (engine.ts) over secretlint's preset (secretlint.ts), the supplementary and user rules
 * (rules.ts), a JSON text as pieces (json-pieces.ts), and cutting without leaving a part of a
 * secret (cut.ts). Imports only src/shared; the proxy and the server's ingest both use it.
 */
export { Redactor, type Redacted } from './engine.js';
export { cutBody, cutUtf8, trimCutTail } from './cut.js';
export { RuleError, SUPPLEMENTARY_RULES, compileUserPattern, type ValueRule } from './rules.js';
export { PRESET_RULES, presetFindings, mayHoldPresetSecret, type Finding } from './secretlint.js';
export { redactSessionInfo } from './session-info.js';
