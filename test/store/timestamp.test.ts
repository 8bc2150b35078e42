import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../src/ingest/timestamp.js';

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
