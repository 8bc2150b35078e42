/**
 * The sentence a call's details give for its verdict, over a real server: an empty result
 * reads like a person wrote it, in the outcome legend's word ("empty"), not "ok but the
 * result was empty".
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from './helpers.js';
import { startHarness, type Harness } from './server.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  const items = [
    call({ session_id: 's_e00000000001', tool: 'lookup', t: 0, is_empty: true }),
    call({ session_id: 's_e00000000002', tool: 'lookup', t: 0, outcome: 'crashed' }),
  ];
  expect(await h.ingest({ batch: items })).toBe(202);
});

afterAll(() => h.close());

it('an empty call says what it was, then why it still counts as ok', async () => {
  const [c] = (await h.get('metricsCalls', { session: 's_e00000000001' })).calls;
  expect(c!.outcome_class).toBe('empty');
  expect(c!.reason).toBe('Not a first-call success: empty result (ok, but nothing in it).');
});

it('a failed call keeps its outcome sentence', async () => {
  const [c] = (await h.get('metricsCalls', { session: 's_e00000000002' })).calls;
  expect(c!.reason).toBe('Not a first-call success: outcome crashed (the tool threw).');
});
