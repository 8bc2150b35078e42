/**
 * Query parameter rules for every `/api` route, in one place. A bad value is always a 400 that
 * names the parameter and says what was expected — never ignored, never rolled over into
 * another value, never passed on to SQLite to fail there as a 500.
 *
 * {@link checkQuery} runs for every request before its handler, so a parameter is held to its
 * rule even on a route that does not read it; the readers below then parse what they use.
 */
import { parseTimestamp, timestampProblem } from '../ingest/timestamp.js';
import type { CallFilter } from '../shared/rows.js';
import { AmbiguousProjectError, UnknownProjectError, type ReadStore } from '../store/index.js';
import { ApiError } from './types.js';
import { CALL_FLAGS } from '../shared/call-conditions.js';

const bad = (name: string, expected: string, value: string): ApiError =>
  new ApiError(400, `${name}: expected ${expected}, received '${clip(value)}'`);

/** An echoed value is cut so a megabyte of junk is not sent back. */
const clip = (value: string): string => (value.length > 80 ? `${value.slice(0, 80)}…` : value);

/** Integer parameters and their smallest value; all are at most 2^53 − 1. */
const INTEGER_PARAMS: Record<string, number> = {
  limit: 1,
  offset: 0,
  before: 0,
  batch: 0,
  chain: 0,
  size_bucket: 0,
  after_seq: 0,
};

/** Parameters that take one value: a second copy would be silently ignored otherwise. */
const SINGLE_PARAMS = [
  ...Object.keys(INTEGER_PARAMS),
  'project',
  'from',
  'to',
  'tool',
  'client',
  'session',
  'tz',
  'cursor',
  'bucket',
  'order',
  'sort',
  'format',
  'q',
  'a',
  'b',
  'resolved',
  'outcome',
  'errors',
  'latency',
  'from_tool',
  ...CALL_FLAGS,
  'kind',
  'method',
  'content',
];

/** Parses a non-negative decimal integer no larger than 2^53 − 1, or throws a 400. */
function integerOf(name: string, value: string, min: number): number {
  if (!/^\d+$/.test(value)) return rangeError(name, value, min);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) return rangeError(name, value, min);
  return n;
}

function rangeError(name: string, value: string, min: number): never {
  throw bad(name, `an integer from ${min} to ${Number.MAX_SAFE_INTEGER}`, value);
}

/**
 * Holds every known parameter present to its rule: integers, instants, `tz`, `cursor`, and
 * one copy of each. Route-specific lists (`sort`, `bucket`, …) are checked by their route.
 */
export function checkQuery(query: URLSearchParams): void {
  for (const name of SINGLE_PARAMS) {
    const n = query.getAll(name).length;
    if (n > 1) throw new ApiError(400, `${name}: given ${n} times; give it once`);
  }
  for (const [name, min] of Object.entries(INTEGER_PARAMS)) {
    const v = query.get(name);
    if (v !== null && v !== '') integerOf(name, v, min);
  }
  for (const name of ['from', 'to'] as const) {
    const v = query.get(name);
    if (v) parseInstant(name, v);
  }
  tzParam(query);
  cursorParam(query);
}

/** Reads an optional integer query value (≥ 0, or ≥ 1 for `limit`), or throws a 400. */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null || v === '') return undefined;
  return integerOf(name, v, INTEGER_PARAMS[name] ?? 0);
}

/**
 * Parses an ISO 8601 query value (with offset, or a plain date meaning UTC midnight). Values
 * `Date` would roll over (`2026-02-30`, `25:00`, `+99:99`) are refused with the reason.
 */
export function parseInstant(name: string, value: string): number {
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const problem = timestampProblem(text);
  const ms = problem === null ? parseTimestamp(text) : null;
  if (ms === null) {
    const why =
      problem && problem !== 'not an ISO 8601 instant with an offset' ? `: ${problem}` : '';
    throw new ApiError(
      400,
      `${name}: expected an ISO 8601 time such as 2026-12-02T10:00:00Z or a date such as 2026-12-02, received '${clip(value)}'${why}`,
    );
  }
  return ms;
}

/** Reads the shared filters (`project`, `from`, `to`, `tool`, `client`, `session`) from a query. */
export function parseFilter(query: URLSearchParams, store: ReadStore): CallFilter {
  checkQuery(query);
  const filter: CallFilter = {};
  const project = query.get('project');
  if (project) {
    let id: number | undefined;
    try {
      id = store.read.resolveProject(project);
    } catch (error) {
      // Two projects share what was typed (a key prefix): picking one would merge or hide data.
      if (error instanceof AmbiguousProjectError) throw new ApiError(400, error.message);
      // Nothing has that key, ref or label: zeros would read as "this project is idle" — unless
      // the dashboard says it is waiting for this exact project's first payload (a ref or key
      // digest it was handed, say by a link or the Setup page): then nothing matches, yet.
      if (error instanceof UnknownProjectError) {
        if (!waitsFor(query, project)) throw new ApiError(404, error.message);
        filter.projectId = -1;
        filter.projectRef = project;
        return parseRest(query, filter);
      }
      throw error;
    }
    filter.projectId = id;
    const identity = id === undefined ? undefined : store.read.projectIdentity(id);
    if (identity) {
      filter.projectRef = identity.ref;
      filter.projectLabel = identity.key_prefix;
    }
  }
  return parseRest(query, filter);
}

/**
 * `unknown_project=empty` with a project given as a ref or a key digest (12–64 lowercase hex):
 * the caller (the dashboard) knows which project it waits for, so an empty answer is true.
 * Anything typed by hand — a label, a prefix, a word — still gets its 404.
 */
function waitsFor(query: URLSearchParams, project: string): boolean {
  return query.get('unknown_project') === 'empty' && /^[0-9a-f]{12,64}$/.test(project);
}

/** The filters after `project`: the time range and the tool, client and session. */
function parseRest(query: URLSearchParams, filter: CallFilter): CallFilter {
  const from = query.get('from');
  if (from) filter.from = parseInstant('from', from);
  const to = query.get('to');
  if (to) filter.to = parseInstant('to', to);
  if (filter.from !== undefined && filter.to !== undefined && filter.to <= filter.from)
    throw new ApiError(400, `to: expected a time after from ('${from}'), received '${clip(to!)}'`);
  for (const name of ['tool', 'client', 'session'] as const) {
    const v = query.get(name);
    if (v) filter[name] = v;
  }
  return filter;
}

/** `tz`: the viewer's offset in whole minutes east of UTC, −840 to 840 (default 0). */
export function tzParam(query: URLSearchParams): number {
  const v = query.get('tz');
  if (v === null || v === '') return 0;
  const n = /^[+-]?\d{1,4}$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || Math.abs(n) > 14 * 60)
    throw bad('tz', 'minutes east of UTC, −840 to 840', v);
  return n;
}

/** `cursor`: the `next_cursor` of a previous page (`<started_ms>:<id>`), or undefined. */
export function cursorParam(query: URLSearchParams): { ms: number; id: number } | undefined {
  const v = query.get('cursor');
  if (v === null || v === '') return undefined;
  const m = /^(-?\d{1,16}):(\d{1,16})$/.exec(v);
  const ms = m ? Number(m[1]) : NaN;
  const id = m ? Number(m[2]) : NaN;
  if (!Number.isSafeInteger(ms) || !Number.isSafeInteger(id))
    throw bad('cursor', 'the next_cursor of the previous page', v);
  return { ms, id };
}

/** A query value from a fixed list; `fallback` when absent, 400 when not in the list. */
export function oneOf<T extends string>(
  q: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const v = q.get(name);
  if (v === null || v === '') return fallback;
  if (!(allowed as readonly string[]).includes(v))
    throw bad(name, `one of ${allowed.join(', ')}`, v);
  return v as T;
}

/** A `true`/`false` (or `1`/`0`) query value; undefined when absent, 400 otherwise. */
export function bool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw bad(name, 'true or false', v);
}

/** The `limit` query value, at least 1 and capped at `max`. */
export function limitOf(q: URLSearchParams, fallback: number, max: number): number {
  return Math.min(intParam(q, 'limit') ?? fallback, max);
}

/**
 * Refuses `before` on a list that pages another way, instead of ignoring it: the common
 * parameters include `before`, so a client may well send it here.
 */
export function refuseBefore(q: URLSearchParams, route: string, pagesWith: string): void {
  if (q.get('before'))
    throw new ApiError(400, `before: ${route} pages with ${pagesWith}, not before`);
}
