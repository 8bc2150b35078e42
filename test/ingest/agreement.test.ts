/**
 * The `agreement` payload (PHP 0.1.6, Agree.php) through the real endpoint: validated as
 * strictly as a call, refused per item with a dotted reason, stored, listed by /api/agreements.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateItem } from '../../src/ingest/validate-item.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authedFetch } from '../helpers/token.js';

const VERDICT = {
  v: 1,
  type: 'agreement',
  session_id: 's_0123456789ab',
  field: 'issue_id',
  tool_a: 'search',
  tool_b: 'lookup',
  agreed: false,
  checked_at: '2026-12-02T10:30:02.422Z',
  window_ms: 300000,
} as const;

const reasonOf = (item: unknown): string | null => {
  const v = validateItem(item, 0);
  return v.kind === 'rejected' ? v.rejection.reason : null;
};

describe('agreement validation', () => {
  it('accepts the PHP SDK verdict, with or without window_ms, unknown fields kept aside', () => {
    expect(reasonOf(VERDICT)).toBeNull();
    const { window_ms: _w, ...noWindow } = VERDICT;
    expect(reasonOf(noWindow)).toBeNull();
    const v = validateItem({ ...VERDICT, tolerance: 0.0001 }, 0);
    expect(v.kind === 'agreement' && v.agreement.extra).toEqual({ tolerance: 0.0001 });
    expect(v.kind === 'agreement' && v.agreement.checkedMs).toBe(
      Date.UTC(2026, 11, 2, 10, 30, 2, 422),
    );
  });

  it.each([
    [{ v: 2 }, 'v: Invalid literal value, expected 1'],
    [{ session_id: '' }, 'session_id: String must contain at least 1 character(s)'],
    [{ session_id: 'x'.repeat(129) }, 'session_id: String must contain at most 128 character(s)'],
    [{ field: '' }, 'field: String must contain at least 1 character(s)'],
    [{ field: 'f'.repeat(201) }, 'field: String must contain at most 200 character(s)'],
    [{ tool_a: 7 }, 'tool_a: Expected string, received number'],
    [{ tool_b: 't'.repeat(201) }, 'tool_b: String must contain at most 200 character(s)'],
    [{ tool_b: 'search' }, 'tool_b: must differ from tool_a'],
    // Two lone surrogates are stored alike (U+FFFD): still the same tool.
    [{ tool_a: 'a\ud800', tool_b: 'a\udc00' }, 'tool_b: must differ from tool_a'],
    [{ agreed: 'no' }, 'agreed: Expected boolean, received string'],
    [{ agreed: undefined }, 'agreed: Required'],
    [{ checked_at: '2026-12-02 10:30' }, 'checked_at: Invalid datetime'],
    [{ window_ms: 0 }, 'window_ms: Number must be greater than or equal to 1'],
    [{ window_ms: 1.5 }, 'window_ms: Expected integer, received float'],
    [{ window_ms: 2 ** 31 }, 'window_ms: Number must be less than or equal to 2147483647'],
  ])('refuses %j with "%s"', (change, reason) => {
    expect(reasonOf({ ...VERDICT, ...change })).toBe(reason);
  });

  it('still refuses a type no SDK sends, naming the discriminator', () => {
    expect(reasonOf({ ...VERDICT, type: 'verdict' })).toMatch(/^type: Invalid discriminator value/);
  });
});

describe('agreements through the endpoint', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('drops only the bad verdict, stores the rest, and groups them by field and pair', async () => {
    const res = await t.ingest({
      batch: [
        VERDICT,
        { ...VERDICT, agreed: true, checked_at: '2026-12-02T10:31:00Z', window_ms: 30000 },
        { ...VERDICT, tool_b: 'search' },
        { ...VERDICT, field: 'price', tool_a: 'quote', tool_b: 'cart', agreed: true },
      ],
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-mcpulse-accepted')).toBe('3');
    expect(res.headers.get('x-mcpulse-rejected')).toBe('1');
    const { rejections } = await t.api('rejections');
    expect(rejections.map((r) => [r.item_index, r.reason])).toEqual([
      [2, 'tool_b: must differ from tool_a'],
    ]);

    const all = await t.api('agreements');
    expect(all.checks).toBe(3);
    expect(all.diverged).toBe(1);
    expect(all.pairs).toEqual([
      {
        field: 'issue_id',
        tool_a: 'search',
        tool_b: 'lookup',
        checks: 2,
        agreed: 1,
        diverged: 1,
        first_checked_ms: Date.UTC(2026, 11, 2, 10, 30, 2, 422),
        last_checked_ms: Date.UTC(2026, 11, 2, 10, 31),
        last_agreed: true,
        window_ms: 30000,
      },
      expect.objectContaining({ field: 'price', tool_a: 'quote', tool_b: 'cart', checks: 1 }),
    ]);

    // `tool` matches either side of a pair; the range bounds checked_at.
    const byTool = await t.api('agreements', { tool: 'lookup' });
    expect(byTool.pairs.map((p) => p.field)).toEqual(['issue_id']);
    const late = await t.api('agreements', { from: '2026-12-02T10:30:30Z' });
    expect(late.agreements.map((a) => a.agreed)).toEqual([true]);
    const session = await t.api('agreements', { session: VERDICT.session_id, limit: 1 });
    expect(session.agreements).toHaveLength(1);
  });

  it('answers 400 for a bad limit, like every list', async () => {
    const res = await authedFetch(`${t.url}/api/agreements?limit=-1`);
    expect(res.status).toBe(400);
  });
});
