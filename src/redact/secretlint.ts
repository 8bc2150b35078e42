/**
 * secretlint's recommended preset (11.x, the last line for Node 20) as a finder of ranges in a
 * text. `lintSource` is async and costs ~0.5–2 ms a call (measured: docs/reliability.md), so a
 * cheap synchronous pre-check on the literal hints each preset rule needs runs first: most
 * messages carry none, and never reach secretlint.
 */
import { lintSource } from '@secretlint/core';
import { creator as preset } from '@secretlint/secretlint-rule-preset-recommend';

/** A range of a text to replace, and what was found there. */
export interface Finding {
  start: number;
  end: number;
  kind: string;
}

const PRESET_ID = '@secretlint/secretlint-rule-preset-recommend';
const rule = (name: string) => `@secretlint/secretlint-rule-${name}`;

/**
 * The preset as configured here. Off: `filter-comments`, which lets a `secretlint-disable`
 * comment in the scanned text silence findings (a server's answer could carry one), and
 * `gcp`, which reads a file from disk for `.p12` paths (a key name rule covers its JSON form).
 * On: the aws rule's access-key-id scan (`enableIDScanRule`), off by default because ids alone
 * are not secrets in a repository — here they are what the issue asks to hide.
 */
const CONFIG = {
  rules: [
    {
      id: PRESET_ID,
      rule: preset,
      options: {},
      rules: [
        { id: rule('filter-comments'), disabled: true },
        { id: rule('gcp'), disabled: true },
        { id: rule('aws'), options: { enableIDScanRule: true } },
      ],
    },
  ],
};

/** The marker kind for a preset rule's report. */
const KINDS: Record<string, string> = {
  aws: 'aws-key',
  github: 'github-token',
  openai: 'openai-key',
  anthropic: 'anthropic-key',
  basicauth: 'url-credentials',
  'database-connection-string': 'url-credentials',
  npm: 'npm-token',
  slack: 'slack-token',
  sendgrid: 'sendgrid-key',
  shopify: 'shopify-token',
  linear: 'linear-key',
  '1password': '1password-token',
  privatekey: 'private-key',
};

/** The preset rules this engine runs, with their marker kinds (for the Settings page). */
export const PRESET_RULES: readonly { rule: string; kind: string }[] = Object.entries(KINDS).map(
  ([name, kind]) => ({ rule: rule(name), kind }),
);

/**
 * What each preset rule's pattern needs before it can report (read from the preset's source,
 * 11.7), as narrow as the rule is — a URL without `user:password@`, "Asia" or "risk-free" must
 * not wake secretlint, which costs ~0.7 ms where this costs a few µs. Case-sensitive where
 * the rule is. A test runs a sample of every rule through both, so a preset update that adds
 * a format without a hint here fails it (test/redact/preset-hints.test.ts).
 */
const HINTS = new RegExp(
  [
    '(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}', // aws: key id
    '(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)', // aws: secret access key
    '(?:ACCOUNT|account|Account)_?(?:ID|id|Id)?["\']?\\s*(?::|=)\\s*["\']?[0-9]{4}', // aws: account id
    'PRIVATE KEY', // privatekey
    // npm: its `_authToken` and `x-oauth-basic` checks read only .npmrc and package.json files.
    'npm_[A-Za-z0-9_]{36}', // npm
    'xox[bpaor]-|xapp-', // slack: tokens
    ':\\/\\/[^\\s/@:]{1,256}:[^\\s/@]{1,256}@', // basicauth, database-connection-string
    'sk-(?:[a-zA-Z0-9]{20}T3Blbk|proj-|svcacct-|admin-|ant-)', // openai, anthropic
    'lin_api_', // linear
    'SG\\.\\w+\\.', // sendgrid
    'shp(?:pa|ca|at|ss)_', // shopify
    '(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9_]{36}|github_pat_', // github
    'ops_ey', // 1password
  ].join('|'),
);
/** slack: incoming webhooks (the rule ignores case). */
const HINTS_ANY_CASE = /hooks\.slack\.com/i;

/** Whether any preset rule could report anything in `text` (cheap, synchronous). */
export function mayHoldPresetSecret(text: string): boolean {
  return HINTS.test(text) || HINTS_ANY_CASE.test(text);
}

/**
 * The preset's findings in `text`. URL credentials are narrowed to the `user:password` part so
 * the scheme and host stay readable.
 */
export async function presetFindings(text: string): Promise<Finding[]> {
  if (!mayHoldPresetSecret(text)) return [];
  const result = await lintSource({
    source: { content: text, filePath: 'message.txt', ext: '.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true, maskSecrets: false },
  });
  const out: Finding[] = [];
  for (const m of result.messages) {
    const [start, end] = m.range;
    const name = m.ruleId.replace('@secretlint/secretlint-rule-', '');
    const kind = KINDS[name] ?? name.replace(/[^a-z0-9-]+/gi, '-').toLowerCase();
    if (kind === 'url-credentials') {
      const found = text.slice(start, end);
      const scheme = found.indexOf('://');
      const at = found.lastIndexOf('@');
      if (scheme !== -1 && at > scheme + 3) {
        out.push({ start: start + scheme + 3, end: start + at, kind });
        continue;
      }
    }
    out.push({ start, end, kind });
  }
  return out;
}
