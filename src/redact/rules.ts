/**
 * The value rules besides secretlint's preset (secretlint.ts): small supplementary rules for
 * the formats issue 40 names that the preset does not catch, and the user's own patterns.
 * Each rule is a global regular expression; a named group `secret` narrows what is replaced
 * (the `Bearer ` or the `access_token=` stays readable, the value goes).
 */
import { USER_RULE_LIMITS } from '../shared/redaction.js';

/** A value rule: a kind (the marker's name) and where it matches. */
export interface ValueRule {
  kind: string;
  /** Global (`g`). A named group `secret` is what is replaced; else the whole match. */
  pattern: RegExp;
  /** One line: what it catches and why it is here (shown read-only on the Settings page). */
  about: string;
}

/**
 * Formats the preset (secretlint-rule-preset-recommend 11.x) misses, each saying which preset
 * rule does not catch it and why. GitHub tokens (`ghp_…`, `github_pat_…`) and private keys
 * need none: the preset's github and privatekey rules catch them; AWS key ids are caught by
 * the preset's aws rule once its `enableIDScanRule` option is on (secretlint.ts turns it on).
 */
export const SUPPLEMENTARY_RULES: readonly ValueRule[] = [
  {
    kind: 'openai-key',
    // secretlint-rule-openai only matches keys with the `T3BlbkFJ` marker at fixed lengths
    // (20+20, or 58/74 on both sides): current project and service-account keys, and keys of
    // other lengths, pass it. Anthropic's `sk-ant-` keys have their own preset rule.
    pattern: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
    about: 'OpenAI API keys (sk-…, sk-proj-…) of any length — the preset needs the T3BlbkFJ marker',
  },
  {
    kind: 'jwt',
    // No preset rule looks for JSON Web Tokens at all.
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
    about: 'JSON Web Tokens (eyJ….eyJ….signature) — no preset rule',
  },
  {
    kind: 'bearer-token',
    // No preset rule reads an Authorization header's value inside a string.
    pattern: /\b(?:Bearer|Basic|Token)\s+(?<secret>[A-Za-z0-9._~+/-]{8,}=*)/g,
    about: 'Bearer/Basic/Token credentials inside text — no preset rule',
  },
  {
    kind: 'url-credentials',
    // secretlint-rule-basicauth only reads http(s)/ftp URLs whose user and password are
    // [-A-Za-z0-9_] and skips placeholder-looking ones; the connection-string rule only
    // covers mongodb/mysql/postgres. Any scheme and any characters here.
    pattern: /\b[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/(?<secret>[^\s/?#@:"'<>[\]]+:[^\s/?#@"'<>[\]]+)@/g,
    about:
      'user:password in a URL of any scheme — the preset covers http(s), ftp and three databases',
  },
  {
    kind: 'token-parameter',
    // No preset rule reads query or form parameters.
    pattern:
      /(?<=^|[?&#;\s"'])(?:access_token|refresh_token|id_token|token|api_key|apikey|api-key|key|client_secret|secret|password|passwd|pwd|auth|sig|signature)=(?<secret>[^&#\s"'<>[\]]+)/gi,
    about: 'access_token=, token=, api_key=, password=, sig=… parameters — no preset rule',
  },
];

/** Why a user rule was refused. */
export class RuleError extends Error {}

/** A user pattern as written: `/source/flags` or a bare source. */
function parsePattern(text: string): { source: string; flags: string } {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(text);
  return literal ? { source: literal[1]!, flags: literal[2]! } : { source: text, flags: '' };
}

/**
 * A user pattern as a rule, or a {@link RuleError} saying what is wrong: not a valid regular
 * expression, a flag other than i/m/s/u, or one that matches the empty string (it would mark
 * every position of every text).
 */
export function compileUserPattern(text: string): ValueRule {
  if (typeof text !== 'string' || text.trim() === '')
    throw new RuleError('a pattern must be a non-empty string');
  if (text.length > USER_RULE_LIMITS.patternLength)
    throw new RuleError(
      `pattern over ${USER_RULE_LIMITS.patternLength} characters: ${text.slice(0, 40)}…`,
    );
  const { source, flags } = parsePattern(text);
  const bad = flags.replace(/[imsu]/g, '');
  if (bad) throw new RuleError(`pattern ${text}: flag '${bad[0]}' is not allowed (use i, m, s, u)`);
  let pattern: RegExp;
  try {
    pattern = new RegExp(source, `${[...new Set(flags)].join('')}g`);
  } catch (error) {
    throw new RuleError(
      `pattern ${text}: not a valid regular expression (${(error as Error).message})`,
    );
  }
  if (new RegExp(pattern.source, pattern.flags.replace('g', '')).test(''))
    throw new RuleError(`pattern ${text}: matches the empty string`);
  return { kind: 'user-pattern', pattern, about: `your pattern ${text}` };
}

/** User key names, trimmed and lower-cased, or a {@link RuleError}. */
export function checkUserKeys(keys: readonly unknown[]): string[] {
  return keys.map((k) => {
    if (typeof k !== 'string' || k.trim() === '')
      throw new RuleError('a key name must be a non-empty string');
    if (k.length > USER_RULE_LIMITS.keyLength)
      throw new RuleError(`key name over ${USER_RULE_LIMITS.keyLength} characters`);
    return k.trim().toLowerCase();
  });
}
