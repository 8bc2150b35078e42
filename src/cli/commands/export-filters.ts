/**
 * The shared filter flags of `export` and `report` — the same names and the same parsing as
 * the API's query string (`project`, `from`, `to`, `tool`, `client`, `session`), by reusing
 * the server's own parser.
 */
import { existsSync } from 'node:fs';
import { parseFilter } from '../../api/params.js';
import { ApiError } from '../../api/types.js';
import { schemaVersion, type ReadStore } from '../../store/index.js';
import type { CallFilter } from '../../shared/rows.js';
import { MIGRATIONS } from '../../store/migrations/index.js';
import { UsageError } from '../io.js';
import { openDbForCli } from '../../host/open-db.js';
import { prog } from '../invocation.js';

/** parseArgs options for the filters. */
export const FILTER_OPTIONS = {
  project: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  tool: { type: 'string' },
  client: { type: 'string' },
  session: { type: 'string' },
} as const;

/** Usage lines for the filters. */
export const FILTER_USAGE = `  --project P        one project: its ref (12 hex of the key's SHA-256), the key itself, a
                     row id, or the start of a ref or key label only one project has (two
                     sharing one is refused; one nobody has is an error naming it)
  --from TIME        calls that started at or after TIME (ISO 8601, or a date = UTC midnight)
  --to TIME          calls that started before TIME
  --tool NAME        one tool
  --client NAME      one client (clientInfo.name)
  --session ID       one session`;

/** Builds the filter from parsed flags; bad values are usage errors. */
export function filterFromFlags(
  values: Partial<Record<keyof typeof FILTER_OPTIONS, string>>,
  store: ReadStore,
): CallFilter {
  const query = new URLSearchParams();
  for (const name of Object.keys(FILTER_OPTIONS) as (keyof typeof FILTER_OPTIONS)[]) {
    const v = values[name];
    if (v !== undefined) query.set(name, v);
  }
  try {
    return parseFilter(query, store);
  } catch (error) {
    if (error instanceof ApiError) throw new UsageError(`--${error.message}`);
    throw error;
  }
}

/**
 * Opens a database that must already exist, read-only (readers never take the instance lock:
 * WAL lets them read while a dashboard writes). A file from an older version is migrated
 * first — moved forward, never wiped — since the queries expect the current schema.
 * A missing file is one clear line. Acknowledged flushes still in the ingest spool (a
 * dashboard stopped before storing them) are not in what a reader sees: `warn` says so.
 */
export function openExisting(path: string, warn: (line: string) => void): ReadStore {
  if (path !== ':memory:' && !existsSync(path)) {
    throw new UsageError(`no database at ${path} — pass --db with the file the dashboard uses`);
  }
  let store = openDbForCli(path, { readonly: true });
  const version = schemaVersion(store);
  if (version < (MIGRATIONS.at(-1)?.version ?? 0)) {
    store.close();
    openDbForCli(path, { tell: warn }).close();
    store = openDbForCli(path, { readonly: true });
  }
  const { requests, payloads } = store.spool.backlog();
  if (requests > 0) {
    warn(
      `note: ${payloads.toLocaleString('en-US')} acknowledged items (${requests.toLocaleString('en-US')} ${requests === 1 ? 'flush' : 'flushes'}) are still in the ingest spool and not in this output — start the dashboard once (${prog()} serve) to store them\n`,
    );
  }
  return store;
}
