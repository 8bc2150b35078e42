import { describe, expect, it } from 'vitest';
import { parseTimestamp, timestampProblem } from '../../src/ingest/timestamp.js';

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
