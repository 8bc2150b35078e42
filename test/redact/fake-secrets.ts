/**
 * Fake but format-valid secrets, assembled at run time from pieces and random characters, so
 * no string in the repository looks like a real key to a secret scanner. Each run gets fresh
 * ones: a test that finds one on disk found this run's, not a leftover.
 */
import { randomBytes } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** `n` random characters of `alphabet`. */
function chars(n: number, alphabet = ALNUM): string {
  return [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join('');
}

const b64url = (s: string) => Buffer.from(s).toString('base64url');

/**
 * The marker kind each of issue 40's six formats is redacted as, in the order a test's message
 * names them (OpenAI key first: `get-env` shows it under its key name instead).
 */
export const ISSUE_40_KINDS = [
  'openai-key',
  'github-token',
  'aws-key',
  'jwt',
  'url-credentials',
  'token-parameter',
] as const;

/** One of each format issue 40 names, by kind. */
export interface FakeSecrets {
  openai: string;
  github: string;
  githubFineGrained: string;
  aws: string;
  jwt: string;
  /** The password of `url` (the credential part a test looks for). */
  urlPassword: string;
  url: string;
  /** The value of the `access_token` parameter of `tokenUrl`. */
  accessToken: string;
  tokenUrl: string;
  bearer: string;
}

/** Fresh fake secrets. */
export function fakeSecrets(): FakeSecrets {
  const urlPassword = `pw${chars(14)}`;
  const accessToken = chars(32);
  return {
    openai: ['sk', 'proj', chars(64)].join('-'),
    github: ['gh', 'p_', chars(36)].join(''),
    githubFineGrained: ['github', 'pat', `${chars(22)}_${chars(59)}`].join('_'),
    aws: ['AK', 'IA', chars(16, UPPER_DIGITS)].join(''),
    jwt: [
      b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' })),
      b64url(JSON.stringify({ sub: chars(12), iat: 1_700_000_000 })),
      chars(43),
    ].join('.'),
    urlPassword,
    url: `https://deploy:${urlPassword}@git.example.com/team/repo.git`,
    accessToken,
    tokenUrl: `https://api.example.com/v1/items?page=2&${'access'}_token=${accessToken}`,
    bearer: chars(40),
  };
}

/** The values that must never be stored (what a grep of the database looks for). */
export function secretValues(s: FakeSecrets): string[] {
  return [
    s.openai,
    s.github,
    s.githubFineGrained,
    s.aws,
    s.jwt,
    s.urlPassword,
    s.accessToken,
    s.bearer,
  ];
}
