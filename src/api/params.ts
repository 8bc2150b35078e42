/** Query parameters every operation shares: instants, the common filters, integers. */
import { parseTimestamp } from '../ingest/timestamp.js';
import { AmbiguousProjectError, type ReadStore } from '../store/index.js';
import type { CallFilter } from '../shared/rows.js';
import { ApiError } from './types.js';

/** Parses an ISO 8601 query value (with offset, or a plain date meaning UTC midnight). */
export function parseInstant(name: string, value: string): number {
  const ms =
    parseTimestamp(value) ??
    (/^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : null);
  if (ms === null || Number.isNaN(ms)) {
    throw new ApiError(
      400,
      `${name}: expected an ISO 8601 time such as 2026-12-02T10:00:00Z, received '${value}'`,
    );
  }
  return ms;
}

/** Reads the shared filters (`project`, `from`, `to`, `tool`, `client`, `session`) from a query. */
export function parseFilter(query: URLSearchParams, store: ReadStore): CallFilter {
  const filter: CallFilter = {};
  const project = query.get('project');
  if (project) {
    let id: number | undefined;
    try {
      id = store.read.resolveProject(project);
    } catch (error) {
      // Two projects share what was typed (a key prefix): picking one would merge or hide data.
      if (error instanceof AmbiguousProjectError) throw new ApiError(400, error.message);
      throw error;
    }
    // An unknown project is a filter that matches nothing, not an error: links stay valid
    // across a clear-all. -1 never matches a rowid.
    filter.projectId = id ?? -1;
    const identity = id === undefined ? undefined : store.read.projectIdentity(id);
    if (identity) {
      filter.projectRef = identity.ref;
      filter.projectLabel = identity.key_prefix;
    }
  }
  const from = query.get('from');
  if (from) filter.from = parseInstant('from', from);
  const to = query.get('to');
  if (to) filter.to = parseInstant('to', to);
  for (const name of ['tool', 'client', 'session'] as const) {
    const v = query.get(name);
    if (v) filter[name] = v;
  }
  return filter;
}

/** Reads an optional non-negative integer query value. */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new ApiError(400, `${name}: expected a non-negative integer, received '${v}'`);
  return n;
}
