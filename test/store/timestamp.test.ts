import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseTimestamp,
  parseTimestampSlowly,
  timestampProblem,
} from '../../src/ingest/timestamp.js';

describe('parseTimestamp', () => {
  it.each([
    ['2026-08-09T14:22:31.544Z', Date.UTC(2026, 7, 9, 14, 22, 31, 544)],
    ['2026-08-09T14:22:31Z', Date.UTC(2026, 7, 9, 14, 22, 31)],
    ['2026-08-09T14:22:31.5Z', Date.UTC(2026, 7, 9, 14, 22, 31, 500)],
    ['2026-08-09T14:22:31.123456789Z', Date.UTC(2026, 7, 9, 14, 22, 31, 123)],
    ['2026-08-09T14:22:31.1234567+00:00', Date.UTC(2026, 7, 9, 14, 22, 31, 123)],
    ['2026-08-09T16:22:31.544+02:00', Date.UTC(2026, 7, 9, 14, 22, 31, 544)],
    ['2026-08-09T09:52:31.544-04:30', Date.UTC(2026, 7, 9, 14, 22, 31, 544)],
    ['2026-08-10T00:22:31+10:00', Date.UTC(2026, 7, 9, 14, 22, 31)],
  ])('%s', (text, ms) => {
    expect(parseTimestamp(text)).toBe(ms);
  });

  it.each([
    '',
    'yesterday',
    '2026-08-09',
    '2026-08-09T14:22:31',
    '2026-08-09 14:22:31Z',
    '1786285351544',
  ])('rejects %j', (text) => expect(parseTimestamp(text)).toBeNull());
});

describe('the fast path for the shapes SDKs send', () => {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  it('answers what the general parser answers, fields in range or not', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 61 }),
        fc.integer({ min: 0, max: 61 }),
        fc.stringMatching(/^(\.\d{0,10})?$/),
        fc.constantFrom('T', 't'),
        fc.constantFrom('Z', 'z', '+00:00', '-00:00', '+0000', '+01:30', 'ZZ', ''),
        (y, mo, d, h, mi, s, fraction, t, z) => {
          const text = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}${t}${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${fraction}${z}`;
          expect(parseTimestamp(text)).toBe(parseTimestampSlowly(text));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('answers what the general parser answers for any 19–32 characters of that alphabet', () => {
    const char = fc.constantFrom(...'0123456789-:.TtZz+ '.split(''));
    fc.assert(
      fc.property(fc.array(char, { minLength: 19, maxLength: 32 }), (chars) => {
        const text = chars.join('');
        expect(parseTimestamp(text)).toBe(parseTimestampSlowly(text));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    '2024-02-29T23:59:59.999Z',
    '2023-02-29T00:00:00.000Z',
    '1970-01-01T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '0000-03-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    '2026-12-06T24:00:00.000Z',
    '2026-12-06T23:59:60.000Z',
    '2026-08-09T14:22:31Z',
    '2026-08-09T14:22:31.5Z',
    '2026-08-09T14:22:31.123456789Z',
    '2026-08-09T14:22:31.1234567+00:00',
    '2026-08-09T14:22:31.Z',
    '2026-08-09T14:22:31.544+02:00',
  ])('%s', (text) => expect(parseTimestamp(text)).toBe(parseTimestampSlowly(text)));
});

describe('years 0000–0099', () => {
  // Production's zod pattern accepts them, so they are stored — as the year written.
  it.each([
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
    ['0001-03-04T05:06:07.089Z', '0001-03-04T05:06:07.089Z'],
    ['0099-12-31T23:59:59Z', '0099-12-31T23:59:59.000Z'],
    ['0004-02-29T12:00:00+02:00', '0004-02-29T10:00:00.000Z'],
    ['0100-01-01T00:00Z', '0100-01-01T00:00:00.000Z'],
  ])('%s is %s', (text, utc) => {
    expect(new Date(parseTimestamp(text)!).toISOString()).toBe(utc);
  });
});

describe('timestampProblem', () => {
  it.each([
    ['2026-02-30T00:00:00Z', '2026-02 has no day 30'],
    ['2025-02-29T00:00:00Z', '2025-02 has no day 29'],
    ['2026-13-01T00:00:00Z', 'month 13 does not exist'],
    ['2026-01-01T24:00:00Z', 'the time of day is out of range'],
    ['2026-01-01T00:00:00+99:99', 'the offset is out of range (±23:59 at most)'],
    ['2026-01-01T00:00:00+05:60', 'the offset is out of range (±23:59 at most)'],
    ['yesterday', 'not an ISO 8601 instant with an offset'],
  ])('%s: %s', (text, reason) => expect(timestampProblem(text)).toBe(reason));

  it.each(['2024-02-29T00:00:00Z', '2026-12-31T23:59:59.999-23:59', '2026-01-01T00:00Z'])(
    'accepts %s',
    (text) => expect(timestampProblem(text)).toBeNull(),
  );
});
