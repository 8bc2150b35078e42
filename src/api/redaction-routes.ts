/**
 * Redaction routes (issue 40): the rules in force — built-in, read-only; the user's, stored in
 * settings — and a preview that redacts pasted text on the server, so the browser never
 * bundles secretlint. The content ingest reads the saved user rules before every post.
 */
import { PRESET_RULES, Redactor, RuleError, SUPPLEMENTARY_RULES } from '../redact/index.js';
import { DEFAULT_SECRET_KEYS } from '../shared/proxy-content.js';
import { USER_RULE_LIMITS, type UserRedactionRules } from '../shared/redaction.js';
import { redactionRulesOf, saveRedactionRules, type ReadStore } from '../store/index.js';
import { ApiError, writable, type RouteMap } from './types.js';

/** Preview input: at most this many characters (a message body's cap is 256 KB). */
const PREVIEW_MAX_CHARS = 256 * 1024;

/** The rules the Settings page shows: built-in (read-only) and the user's. */
function rulesView(store: ReadStore) {
  return {
    builtin: {
      /** Key names whose string values are redacted whole, at any depth (substrings). */
      keys: [...DEFAULT_SECRET_KEYS],
      /** Keys the protocol uses that look secret but are not: never redacted. */
      protocol_keys: ['progressToken'],
      /** secretlint's recommended preset, rule by rule, with the marker each one writes. */
      preset: PRESET_RULES.map((r) => ({ rule: r.rule, kind: r.kind })),
      /** Formats the preset misses, each with why. */
      supplementary: SUPPLEMENTARY_RULES.map((r) => ({
        kind: r.kind,
        about: r.about,
        pattern: `/${r.pattern.source}/${r.pattern.flags}`,
      })),
    },
    user: redactionRulesOf(store),
    limits: USER_RULE_LIMITS,
  };
}

/** `{keys, patterns}` from a request body, checked: a 400 says what is wrong. */
function userRules(body: unknown, partial: boolean): UserRedactionRules | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError(
      400,
      'expected a JSON object such as {"keys":["pin"],"patterns":["/ord-\\\\d+/"]}',
    );
  const { keys, patterns } = body as { keys?: unknown; patterns?: unknown };
  if (partial && keys === undefined && patterns === undefined) return null;
  const list = (v: unknown, name: string): string[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string'))
      throw new ApiError(400, `${name}: expected an array of strings`);
    if (v.length > USER_RULE_LIMITS.rules)
      throw new ApiError(400, `${name}: at most ${USER_RULE_LIMITS.rules} rules`);
    return v as string[];
  };
  const rules = { keys: list(keys, 'keys'), patterns: list(patterns, 'patterns') };
  try {
    new Redactor(rules);
  } catch (error) {
    if (error instanceof RuleError) throw new ApiError(400, error.message);
    throw error;
  }
  return { keys: rules.keys.map((k) => k.trim()), patterns: rules.patterns };
}

/** `GET|PUT /api/settings/redaction`, `POST /api/redaction/preview`. */
export const redactionRoutes = {
  'GET /api/settings/redaction': ({ store }) => rulesView(store),

  'PUT /api/settings/redaction': ({ store, body }) => {
    saveRedactionRules(writable(store), userRules(body, false)!);
    return rulesView(store);
  },

  /**
   * `{text, keys?, patterns?}` → the text redacted with the built-in rules and the saved user
   * rules, or with `keys`/`patterns` when given (to try rules before saving them). JSON text is
   * redacted as the content ingest does (inside string values); anything else as plain text.
   */
  'POST /api/redaction/preview': async ({ store, body }) => {
    const text = (body as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string')
      throw new ApiError(400, 'text: expected the text to redact, e.g. {"text":"Bearer abc…"}');
    if (text.length > PREVIEW_MAX_CHARS)
      throw new ApiError(400, `text: at most ${PREVIEW_MAX_CHARS} characters`);
    const rules = userRules(body, true) ?? redactionRulesOf(store);
    const redactor = new Redactor(rules);
    let json = false;
    try {
      JSON.parse(text);
      json = true;
    } catch {
      // Plain text.
    }
    const r = json ? await redactor.redactJson(text) : await redactor.redactText(text);
    return { text: r.text, found: r.found, count: r.count, json };
  },
} satisfies RouteMap;
