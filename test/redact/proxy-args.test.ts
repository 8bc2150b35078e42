/** `proxy --redact` (key names and patterns) and its alias `--redact-keys`, as parsed. */
import { describe, expect, it } from 'vitest';
import { parseProxyArgs } from '../../src/cli/commands/proxy-args.js';
import { UsageError } from '../../src/cli/io.js';

const parse = (...flags: string[]) => parseProxyArgs([...flags, '--', 'node', 'server.js'], {});

describe('proxy --redact', () => {
  it('takes key names and /patterns/, repeatable, beside --redact-keys', () => {
    const run = parse('--redact', 'pin,ssn', '--redact', '/ord-\\d+/i', '--redact-keys', 'session');
    expect(run.mode === 'stdio' && run.redact).toEqual({
      keys: ['pin', 'ssn', 'session'],
      patterns: ['/ord-\\d+/i'],
    });
  });

  it('refuses a bad pattern and empty names with a usage error that says why', () => {
    expect(() => parse('--redact', '/(oops/')).toThrow(UsageError);
    expect(() => parse('--redact', '/(oops/')).toThrow(
      /--redact: .*not a valid regular expression/,
    );
    expect(() => parse('--redact', '/a*/')).toThrow(/matches the empty string/);
    expect(() => parse('--redact-keys', ',')).toThrow(/--redact-keys: expected key names/);
  });
});
