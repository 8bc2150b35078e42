/**
 * The pure helpers behind the tables: the short verdict of a call, what changed between two
 * attempts of a retry chain, what differs between two pasted argument texts, and a session's
 * title. Fed with the API's own call views from the worked example where a call is needed.
 */
import { describe, expect, it } from 'vitest';
import { canonicalize, parseJson, toValue } from '../../src/canonical/index.js';
import type { CallView } from '../../src/metrics/report.js';
import { verdictOf } from '../../renderer/src/lib/verdict.js';
import { pathChanges } from '../../renderer/src/pages/playground/compare-paths.js';
import {
  argsChange,
  attemptsOf,
  extraChanges,
} from '../../renderer/src/pages/sessions/attempt-changes.js';
import { sessionTitle } from '../../renderer/src/pages/sessions/session-title.js';

type Facts = Parameters<typeof verdictOf>[0];
const facts = (over: Partial<Facts>): Facts => ({
  first_call_success: false,
  outcome_class: 'ok',
  retried: false,
  repeated: false,
  unknown_link: false,
  ...over,
});

describe('verdictOf', () => {
  it('names the one reason, worst first, in a few words', () => {
    expect(verdictOf(facts({ first_call_success: true })).short).toBe('ok');
    expect(verdictOf(facts({ first_call_success: true, repeated: true })).short).toBe(
      'ok, then repeated',
    );
    expect(verdictOf(facts({ retried: true })).short).toBe('retried');
    expect(verdictOf(facts({ outcome_class: 'empty' })).short).toBe('empty');
    expect(verdictOf(facts({ outcome_class: 'bad_args', retried: true })).short).toBe(
      'bad args, retried',
    );
    expect(verdictOf(facts({ outcome_class: 'crashed' }))).toEqual({
      ok: false,
      kind: 'crashed',
      short: 'crashed',
    });
  });

  it('never runs long: every combination fits a narrow cell', () => {
    for (const outcome_class of ['ok', 'empty', 'bad_args', 'tool_error', 'crashed'] as const)
      for (const retried of [false, true])
        for (const first_call_success of [false, true]) {
          const v = verdictOf(facts({ outcome_class, retried, first_call_success }));
          expect(v.short.length).toBeLessThanOrEqual(24);
        }
  });
});

const view = (over: Partial<CallView>): CallView =>
  ({
    id: 1,
    tool_name: 't',
    args_hash: 'aaaaaaaaaaaa',
    started_ms: 0,
    extra: null,
    ...over,
  }) as CallView;

describe('attempt changes', () => {
  it('compares hashes, and cannot compare an unhashable one', () => {
    const a = view({ args_hash: 'aaaaaaaaaaaa' });
    expect(argsChange(undefined, a)).toBe('first');
    expect(argsChange(a, view({ args_hash: 'bbbbbbbbbbbb' }))).toBe('changed');
    expect(argsChange(a, view({ args_hash: 'aaaaaaaaaaaa' }))).toBe('same');
    expect(argsChange(a, view({ args_hash: '000000000000' }))).toBe('unknown');
  });

  it('diffs extra fields by key: added, removed, changed', () => {
    expect(extraChanges({ a: 1, b: 'x', c: [1] }, { a: 2, c: [1], d: null })).toEqual([
      { key: 'a', kind: 'changed', before: '1', after: '2' },
      { key: 'b', kind: 'removed', before: '"x"' },
      { key: 'd', kind: 'added', after: 'null' },
    ]);
    expect(extraChanges(null, null)).toEqual([]);
  });

  it('walks a chain in order with the delay between starts', () => {
    const calls = [
      view({ id: 1, started_ms: 100, extra: { attempt: 1 } }),
      view({ id: 2, started_ms: 350, args_hash: 'bbbbbbbbbbbb', extra: { attempt: 2 } }),
    ];
    const attempts = attemptsOf([1, 2, 3], new Map(calls.map((c) => [c.id, c])));
    expect(attempts.map((a) => [a.args, a.delayMs, a.extras.length])).toEqual([
      ['first', null, 1],
      ['changed', 250, 1],
    ]);
  });
});

describe('pathChanges', () => {
  const canon = (text: string): string => canonicalize(toValue(parseJson(text).ast));

  it('reports values by path, ignoring key order and number spelling', () => {
    const a = canon('{"q": "login", "limit": 10.0, "f": {"🚀": true, "a b": [1, 2]}}');
    const b = canon('{"limit": 10, "q": "login bug", "f": {"a b": [1], "🚀": true}, "n": {}}');
    expect(pathChanges(a, b)).toEqual([
      { path: 'f["a b"][1]', kind: 'removed', before: '2' },
      { path: 'n', kind: 'added', after: '{}' },
      { path: 'q', kind: 'changed', before: '"login"', after: '"login bug"' },
    ]);
    expect(pathChanges(a, a)).toEqual([]);
  });

  it('says null for a text that is not JSON', () => {
    expect(pathChanges('{', '{}')).toBeNull();
  });
});

describe('sessionTitle', () => {
  it('prefers the label, else client → first tool, counting extra clients', () => {
    expect(sessionTitle({ label: 'triage', first_tool: 'x', clients: ['c'] })).toBe('triage');
    expect(sessionTitle({ label: null, first_tool: 'search', clients: ['claude-code'] })).toBe(
      'claude-code → search',
    );
    expect(sessionTitle({ label: null, first_tool: 'search', clients: ['a', 'b', 'c'] })).toBe(
      'a +2 → search',
    );
    expect(sessionTitle({ label: null, first_tool: null, clients: [] })).toBe(
      'unknown client · no tool calls',
    );
  });

  it('ends a generated name with its start time, so one client and tool still tell apart', () => {
    const at = (ms: number) =>
      sessionTitle({ label: null, first_tool: 'search', clients: ['cursor'], first_seen_ms: ms });
    const a = at(Date.UTC(2026, 11, 2, 10, 0, 0));
    const b = at(Date.UTC(2026, 11, 2, 10, 0, 7));
    expect(a).toMatch(/^cursor → search · \d\d:\d\d:\d\d$/);
    expect(a).not.toBe(b);
    // A label stands alone: it is the producer's own name for the session.
    expect(
      sessionTitle({
        label: 'quarterly numbers',
        first_tool: 'x',
        clients: ['c'],
        first_seen_ms: 0,
      }),
    ).toBe('quarterly numbers');
    expect(
      sessionTitle({ label: null, first_tool: null, clients: ['claude-code'], first_seen_ms: 0 }),
    ).toMatch(/^claude-code · no tool calls · /);
  });
});
