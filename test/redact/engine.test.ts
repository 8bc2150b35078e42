/**
 * The redaction engine (src/redact) on its own: each format issue 40 names is found and marked
 * with its kind, JSON stays valid and keeps its shape, key names work at any depth, protocol
 * keys and non-string values are left alone, user rules apply and bad ones are refused, a cut
 * never leaves half a marker, and — as properties over any JSON — redaction never throws and
 * redacting twice is redacting once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutBody, Redactor, RuleError, trimCutTail } from '../../src/redact/index.js';
import { countMarkers, markersIn } from '../../src/shared/redaction.js';
import { fakeSecrets, secretValues } from './fake-secrets.js';

const redactor = new Redactor();

/** The one string value of `{"v": …}` after redaction. */
async function redactedValue(value: string, r = redactor): Promise<string> {
  const out = await r.redactJson(JSON.stringify({ v: value }));
  return (JSON.parse(out.text) as { v: string }).v;
}

describe('each format issue 40 names', () => {
  const s = fakeSecrets();
  it.each([
    ['an OpenAI project key', s.openai, 'openai-key'],
    ['a classic GitHub token', s.github, 'github-token'],
    ['a fine-grained GitHub token', s.githubFineGrained, 'github-token'],
    ['an AWS access key id', s.aws, 'aws-key'],
    ['a JWT', s.jwt, 'jwt'],
  ])('%s inside a sentence', async (_, secret, kind) => {
    const v = await redactedValue(`here it is: ${secret} — use it`);
    expect(v).toBe(`here it is: [redacted: ${kind}] — use it`);
  });

  it('a Bearer credential inside a string keeps the scheme word', async () => {
    expect(await redactedValue(`curl -H "Authorization: Bearer ${s.bearer}"`)).toBe(
      'curl -H "Authorization: Bearer [redacted: bearer-token]"',
    );
  });

  it('URL credentials of any scheme keep the scheme and the host', async () => {
    expect(await redactedValue(`clone ${s.url}`)).toBe(
      'clone https://[redacted: url-credentials]@git.example.com/team/repo.git',
    );
    const redis = await redactedValue(`redis://cache:${s.urlPassword}@10.0.0.5:6379/0`);
    expect(redis).toBe('redis://[redacted: url-credentials]@10.0.0.5:6379/0');
  });

  it('token query parameters keep their name', async () => {
    const v = await redactedValue(s.tokenUrl);
    expect(v).toBe(
      'https://api.example.com/v1/items?page=2&access_token=[redacted: token-parameter]',
    );
    expect(await redactedValue('a=1&api_key=abcdef123&token=zz99')).toBe(
      'a=1&api_key=[redacted: token-parameter]&token=[redacted: token-parameter]',
    );
  });

  it('none of the secrets is left anywhere in a message carrying all of them', async () => {
    const all = [s.openai, s.github, s.githubFineGrained, s.aws, s.jwt, s.url, s.tokenUrl];
    const text = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      params: { arguments: { all: `${all.join(' ')} Bearer ${s.bearer}` } },
    });
    const out = await redactor.redactJson(text);
    for (const secret of secretValues(s)) expect(out.text).not.toContain(secret);
    expect(out.count).toBeGreaterThanOrEqual(8);
  });
});

describe('JSON shape and key names', () => {
  it('key names at any depth replace string values only, and leave protocol keys alone', async () => {
    const deep = { a: [{ b: { c: [[{ Password: 'hunter2', max_tokens: 100, token: null }]] } }] };
    const msg = {
      params: { _meta: { progressToken: 'p-1' }, arguments: deep, 'Set-Cookie': 'sid=1' },
    };
    const out = await redactor.redactJson(JSON.stringify(msg));
    const parsed = JSON.parse(out.text);
    expect(parsed.params._meta.progressToken).toBe('p-1');
    expect(parsed.params['Set-Cookie']).toBe('[redacted: key-name]');
    expect(parsed.params.arguments.a[0].b.c[0][0]).toEqual({
      Password: '[redacted: key-name]',
      max_tokens: 100,
      token: null,
    });
    expect(countMarkers(out.text)).toEqual({ 'key-name': 2 });
  });

  it('an object under a secret-looking key is walked into, not hidden', async () => {
    const schema = { properties: { token: { type: 'string', description: 'the token' } } };
    const out = await redactor.redactJson(JSON.stringify(schema));
    expect(JSON.parse(out.text)).toEqual(schema);
  });

  it('JSON inside a string value (a text answer) has its key names honoured too', async () => {
    const env = JSON.stringify({ DB_PASSWORD: 'hunter2', HOME: '/root' }, null, 2);
    const msg = { result: { content: [{ type: 'text', text: env }] } };
    const out = await redactor.redactJson(JSON.stringify(msg));
    const inner = JSON.parse(JSON.parse(out.text).result.content[0].text);
    expect(inner).toEqual({ DB_PASSWORD: '[redacted: key-name]', HOME: '/root' });
    expect((await redactor.redactJson(out.text)).text).toBe(out.text);
  });

  it('a clean message keeps its exact bytes (whitespace, number spelling)', async () => {
    const text = '{ "id" : 1.0e3, "result": {"n": 12345678901234567890} }';
    expect((await redactor.redactJson(text)).text).toBe(text);
  });

  it('escaped characters cannot hide a secret', async () => {
    const s = fakeSecrets();
    const escaped = JSON.stringify({ v: s.github }).replace('p_', '\\u0070_');
    const out = await redactor.redactJson(escaped);
    expect(out.text).not.toContain(s.github.slice(4));
    expect(JSON.parse(out.text).v).toBe('[redacted: github-token]');
  });

  it('a cut body (unterminated string) and text that is not JSON are redacted too', async () => {
    const s = fakeSecrets();
    const cut = `{"result":{"text":"key ${s.github} and more`;
    expect((await redactor.redactJson(cut)).text).toBe(
      '{"result":{"text":"key [redacted: github-token] and more',
    );
    expect((await redactor.redactText(`oops ${s.aws}`)).text).toBe('oops [redacted: aws-key]');
  });

  it('a 50,000-deep value goes through without recursion', async () => {
    const s = fakeSecrets();
    const text = '['.repeat(50_000) + JSON.stringify(s.github) + ']'.repeat(50_000);
    const out = await redactor.redactJson(text);
    expect(out.text).toContain('"[redacted: github-token]"');
    expect(out.text.length).toBe(text.length - s.github.length + '[redacted: github-token]'.length);
  });
});

describe('user rules', () => {
  it('adds key names and patterns (a named group `secret` narrows the redaction)', async () => {
    const r = new Redactor({
      keys: ['PIN'],
      patterns: ['/order-(?<secret>\\d{6})/i', 'acct_[0-9]+'],
    });
    const out = await r.redactJson(JSON.stringify({ pin: '1234', note: 'ORDER-123456 acct_42' }));
    expect(JSON.parse(out.text)).toEqual({
      pin: '[redacted: key-name]',
      note: 'ORDER-[redacted: user-pattern] [redacted: user-pattern]',
    });
  });

  it.each([
    ['(unclosed', /not a valid regular expression/],
    ['/a+/g', /flag 'g' is not allowed/],
    ['x*', /matches the empty string/],
    ['', /non-empty/],
  ])('refuses %j', (pattern, why) => {
    expect(() => new Redactor({ keys: [], patterns: [pattern] })).toThrow(RuleError);
    expect(() => new Redactor({ keys: [], patterns: [pattern] })).toThrow(why);
  });

  it('refuses an empty key name', () => {
    expect(() => new Redactor({ keys: [' '], patterns: [] })).toThrow(RuleError);
  });
});

describe('cutting', () => {
  it('never leaves half a marker or the start of a token', () => {
    const body = `{"v":"abc [redacted: github-token] xyz"}`;
    for (let cap = 1; cap < body.length; cap++) {
      const { text } = cutBody(body, cap);
      const open = text.lastIndexOf('[');
      if (open !== -1 && markersIn(text.slice(open)).length === 0)
        expect(text.slice(open)).not.toMatch(/^\[r/);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(cap);
    }
    expect(trimCutTail('{"v":"see ghp_abc')).toBe('{"v":"see ');
    expect(trimCutTail('{"v":"x [redacted: git')).toBe('{"v":"x ');
  });
});

describe('properties', () => {
  const redactorWithUser = new Redactor({ keys: ['name'], patterns: ['/[0-9]{5,}/'] });
  const secretish = fc.constantFrom(
    ...secretValues(fakeSecrets()),
    'Bearer abcdefghijk',
    'x?token=1',
  );
  const jsonWithSecrets = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 3 }),
      secretish,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(
        fc.oneof(fc.string(), fc.constantFrom('token', 'password', 'progressToken')),
        tie('value'),
        {
          maxKeys: 4,
        },
      ),
    ),
  })).value;

  it('never throws on any JSON, keeps it valid, and is idempotent', async () => {
    await fc.assert(
      fc.asyncProperty(jsonWithSecrets, async (value) => {
        for (const r of [redactor, redactorWithUser]) {
          const once = await r.redactJson(JSON.stringify(value));
          expect(() => JSON.parse(once.text)).not.toThrow();
          const twice = await r.redactJson(once.text);
          expect(twice.text).toBe(once.text);
          expect(twice.count).toBe(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on any text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (text) => {
        const once = await redactor.redactJson(text);
        expect((await redactor.redactJson(once.text)).text).toBe(once.text);
        await redactor.redactText(text);
      }),
      { numRuns: 300 },
    );
  });
});
