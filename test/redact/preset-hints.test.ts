/**
 * The pre-check that keeps secretlint off most messages (src/redact/secretlint.ts) must never
 * be narrower than the preset: a sample of every preset rule (built from pieces at run time)
 * passes the pre-check and is reported by secretlint; common text that is no secret does not
 * wake it.
 */
import { describe, expect, it } from 'vitest';
import { mayHoldPresetSecret, presetFindings } from '../../src/redact/index.js';

const rep = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
const j = (...parts: string[]) => parts.join('');
const PEM = j(
  '-----BEGIN ',
  'RSA PRIVATE KEY-----\n',
  rep('MIIEpAIBAAKCAQEA7', 200),
  '\n-----END ',
  'RSA PRIVATE KEY-----',
);

/** A 1Password service-account token's body: base64 JSON ending in `}` (`fQ==`). */
function opsToken(): string {
  let pad = '';
  let json = '';
  do {
    json = JSON.stringify({ email: `svc${pad}@example.lcl`, secretKey: rep('A3-C4ZJMN', 40) });
    pad += 'x';
  } while (Buffer.byteLength(json) % 3 !== 1);
  return Buffer.from(json).toString('base64');
}

const SAMPLES: [string, string, string][] = [
  ['aws', 'aws-key', j('AK', 'IA', 'Q2W3E4R5T6Y7U2I3')],
  ['aws', 'aws-key', j('aws_secret_', 'access_key = ', rep('Zx9/Yw8+Vu7', 40))],
  ['aws', 'aws-key', j('AWS_ACCOUNT', '_ID=', '1234-5678-9012')],
  ['privatekey', 'private-key', PEM],
  ['npm', 'npm-token', j('np', 'm_', rep('a1B2c3D4', 36))],
  ['slack', 'slack-token', j('xo', 'xb-', '1234567890-', 'abcdefghijKLMN')],
  [
    'slack',
    'slack-token',
    j('https://hooks.slack.com/services/', 'T01ABCDEF/', 'B01ABCDEF/', 'abcDEF123ghiJKL456'),
  ],
  ['basicauth', 'url-credentials', j('https://', 'alice:', 'Zq8xW3vP', '@example.com/x')],
  [
    'database-connection-string',
    'url-credentials',
    j('postgres://', 'alice:', 'Zq8xW3vP', '@db.example.com:5432/app'),
  ],
  ['openai', 'openai-key', j('sk-', rep('aB3', 20), 'T3Blbk', 'FJ', rep('cD4', 20))],
  ['anthropic', 'anthropic-key', j('sk-ant-', 'api03-', rep('aB3_', 95), 'AA')],
  ['linear', 'linear-key', j('lin_', 'api_', rep('aB3', 40))],
  ['sendgrid', 'sendgrid-key', j('SG', '.', rep('aB3', 22), '.', rep('cD4', 43))],
  ['shopify', 'shopify-token', j('shp', 'at_', rep('a1b2c3', 32))],
  ['github', 'github-token', j('gh', 'o_', rep('aB3', 36))],
  ['1password', '1password-token', j('ops_', opsToken())],
];

describe('the preset pre-check', () => {
  it.each(SAMPLES)('lets %s through (%s)', async (_, kind, sample) => {
    const text = `before ${sample} after`;
    expect(mayHoldPresetSecret(text)).toBe(true);
    const found = await presetFindings(text);
    expect(found.map((f) => f.kind)).toContain(kind);
  });

  it.each([
    'see https://example.com/docs?page=2',
    'ASIA PACIFIC region',
    'a risk-free task',
    'the secret of good soup',
    '{"account": "alice"}',
  ])('does not wake secretlint for %j', (text) => {
    expect(mayHoldPresetSecret(text)).toBe(false);
  });
});
