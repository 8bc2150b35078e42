/**
 * The raw accepted payloads of a range, a session or a project, as JSONL in exactly the wire
 * format (one payload per line), so a capture can be replayed with `import` or POSTed to any
 * MCPulse endpoint. Unknown fields a newer SDK sent (kept aside as `extra` at ingest) are put
 * back, so they replay too.
 *
 * Reads go straight to two tables the core reader does not expose in this shape: calls by
 * arrival in keyset pages, and startup tools with their per-tool extra fields (the reader's
 * `startups()` drops those). Each page is one complete query, so a long export never keeps
 * the connection busy between pages and ingest carries on while it streams.
 */
import { agreementFilterSql } from './agreements.js';
import { OMITTED_CALL_FIELDS, OMITTED_STARTUP_TOOLS } from './batch-record.js';
import { connectionOf } from './connection.js';
import type { ReadStore } from './index.js';
import { callFilterSql } from './filter-sql.js';
import { hasTable } from './has-table.js';
import type { CallFilter } from '../shared/rows.js';
import { stringifyJson } from '../shared/deep-json.js';

/** Calls per page; a page is also one chunk of output. */
const PAGE = 2000;

interface RawCall {
  id: number;
  batch_id: number;
  session_id: string;
  client_name: string;
  tool_name: string;
  started_at: string;
  duration_ms: number;
  outcome: string;
  response_bytes: number;
  is_empty: number;
  args_hash: string;
  extra: string | null;
  omitted: number;
}

interface RawStartup {
  id: number;
  project_id: number;
  batch_id: number;
  session_id: string;
  client_name: string;
  extra: string | null;
  omitted: number;
}

const parse = (text: string | null): Record<string, unknown> =>
  text ? (JSON.parse(text) as Record<string, unknown>) : {};

/** `value` under `field`, unless the SDK left that field out (the `omitted` mask says so). */
const sent = (omitted: number, bit: number, value: unknown): unknown =>
  (omitted & bit) === 0 ? value : undefined;

/**
 * A stored call back in its wire form: the contract's fields in order, then the extras. A
 * field the SDK left out stays out (JSON.stringify drops `undefined`): Go's `omitempty` call
 * comes back byte for byte, not with its zeros written out.
 */
function callLine(c: RawCall): string {
  const o = c.omitted;
  return stringifyJson({
    v: 1,
    type: 'call',
    session_id: c.session_id,
    client_name: c.client_name,
    tool_name: c.tool_name,
    started_at: c.started_at,
    duration_ms: sent(o, OMITTED_CALL_FIELDS.duration_ms, c.duration_ms),
    outcome: c.outcome,
    response_bytes: sent(o, OMITTED_CALL_FIELDS.response_bytes, c.response_bytes),
    is_empty: sent(o, OMITTED_CALL_FIELDS.is_empty, c.is_empty === 1),
    args_hash: c.args_hash,
    ...parse(c.extra),
  });
}

/** Whether the filter narrows calls beyond a project (then only related startups go along). */
const narrows = (f: CallFilter): boolean =>
  f.from !== undefined ||
  f.to !== undefined ||
  f.tool !== undefined ||
  f.client !== undefined ||
  f.session !== undefined;

/**
 * Which startups go with the calls:
 * - a session: that session's startups;
 * - a project or everything: every startup in it;
 * - a range, tool or client: the startups of the sessions whose calls are exported, plus the
 *   latest startup of each project, which defines the registered tools (and so dead tools).
 */
function selectStartups(store: ReadStore, filter: CallFilter): RawStartup[] {
  const db = connectionOf(store);
  const byProject = filter.projectId !== undefined ? 'project_id = @projectId' : '1';
  const cols = 'id, project_id, batch_id, session_id, client_name, extra, omitted';
  if (filter.session !== undefined) {
    return db
      .prepare(
        `SELECT ${cols} FROM startups WHERE ${byProject} AND session_id = @session ORDER BY id`,
      )
      .all({ projectId: filter.projectId, session: filter.session }) as RawStartup[];
  }
  if (!narrows(filter)) {
    return db
      .prepare(`SELECT ${cols} FROM startups WHERE ${byProject} ORDER BY id`)
      .all({ projectId: filter.projectId }) as RawStartup[];
  }
  const { where, params } = callFilterSql(filter, 'c');
  return db
    .prepare(
      `SELECT ${cols} FROM startups s
       WHERE ${byProject.replace('project_id', 's.project_id')}
         AND (s.id IN (SELECT max(id) FROM startups GROUP BY project_id)
              OR EXISTS (SELECT 1 FROM calls c ${where ? `${where} AND` : 'WHERE'}
                         c.project_id = s.project_id AND c.session_id = s.session_id))
       ORDER BY s.id`,
    )
    .all({ ...params, projectId: filter.projectId }) as RawStartup[];
}

/** Startups in wire form, with each tool's own extra fields. */
function startupLines(store: ReadStore, startups: RawStartup[]): Map<number, string> {
  const tools = connectionOf(store).prepare<
    [number],
    { name: string; schema_bytes: number; extra: string | null }
  >('SELECT name, schema_bytes, extra FROM startup_tools WHERE startup_id = ? ORDER BY position');
  const out = new Map<number, string>();
  for (const s of startups) {
    out.set(
      s.id,
      stringifyJson({
        v: 1,
        type: 'startup',
        session_id: s.session_id,
        client_name: s.client_name,
        tools: sent(
          s.omitted,
          OMITTED_STARTUP_TOOLS,
          tools
            .all(s.id)
            .map((t) => ({ name: t.name, schema_bytes: t.schema_bytes, ...parse(t.extra) })),
        ),
        ...parse(s.extra),
      }),
    );
  }
  return out;
}

/** What an export contains, for the CLI's closing line. */
export interface ExportCounts {
  calls: number;
  startups: number;
  /** Agreement verdicts; counted when the caller passes the field. */
  agreements?: number;
}

interface RawAgreement {
  batch_id: number;
  session_id: string;
  field: string;
  tool_a: string;
  tool_b: string;
  agreed: number;
  checked_at: string;
  window_ms: number | null;
  extra: string | null;
}

/**
 * The agreement verdicts that go with the export, in arrival order, as wire lines: the same
 * filters as the calls (a tool matches either side of the pair, a range bounds `checked_at`).
 */
function agreementLines(store: ReadStore, filter: CallFilter): { batch: number; line: string }[] {
  const db = connectionOf(store);
  if (!hasTable(db, 'agreements')) return [];
  const { where, params } = agreementFilterSql(filter);
  const rows = db
    .prepare(
      `SELECT a.batch_id, a.session_id, a.field, a.tool_a, a.tool_b, a.agreed, a.checked_at,
              a.window_ms, a.extra
       FROM agreements a ${where} ORDER BY a.id`,
    )
    .all(params) as RawAgreement[];
  return rows.map((a) => ({
    batch: a.batch_id,
    line: stringifyJson({
      v: 1,
      type: 'agreement',
      session_id: a.session_id,
      field: a.field,
      tool_a: a.tool_a,
      tool_b: a.tool_b,
      agreed: a.agreed === 1,
      checked_at: a.checked_at,
      ...(a.window_ms === null ? {} : { window_ms: a.window_ms }),
      ...parse(a.extra),
    }),
  }));
}

/**
 * Yields the export as chunks of complete lines (each ending in `\n`), in arrival order:
 * requests in the order they were received, a request's startups before its calls — so a
 * replay reproduces the same tie-breaks between equal timestamps and the same latest startup.
 */
export function* exportJsonl(
  store: ReadStore,
  filter: CallFilter,
  counts: ExportCounts = { calls: 0, startups: 0 },
): Generator<string> {
  const startups = selectStartups(store, filter);
  const startupText = startupLines(store, startups);
  let nextStartup = 0;
  const agreements = agreementLines(store, filter);
  let nextAgreement = 0;
  /**
   * Startups and verdicts of the requests before a call, merged in request order: a startup
   * leads its request (up to and including the call's), a verdict follows its request's calls
   * (so only those of earlier requests). `null` flushes both.
   */
  const before = (callBatch: number | null, lines: string[]): void => {
    for (;;) {
      const s = startups[nextStartup];
      const a = agreements[nextAgreement];
      const sReady = s !== undefined && (callBatch === null || s.batch_id <= callBatch);
      const aReady = a !== undefined && (callBatch === null || a.batch < callBatch);
      if (!sReady && !aReady) return;
      if (sReady && (!aReady || s.batch_id <= a.batch)) {
        lines.push(startupText.get(startups[nextStartup++]!.id)!);
        counts.startups++;
      } else {
        lines.push(agreements[nextAgreement++]!.line);
        counts.agreements = (counts.agreements ?? 0) + 1;
      }
    }
  };
  const { where, params } = callFilterSql(filter);
  const page = connectionOf(store).prepare(
    `SELECT id, batch_id, session_id, client_name, tool_name, started_at, duration_ms, outcome,
            response_bytes, is_empty, args_hash, extra, omitted
     FROM calls ${where ? `${where} AND` : 'WHERE'} id > @after ORDER BY id LIMIT ${PAGE}`,
  );
  let after = 0;
  for (;;) {
    const rows = page.all({ ...params, after }) as RawCall[];
    const lines: string[] = [];
    for (const c of rows) {
      before(c.batch_id, lines);
      lines.push(callLine(c));
      counts.calls++;
    }
    if (rows.length < PAGE) {
      before(null, lines);
    }
    if (lines.length > 0) yield `${lines.join('\n')}\n`;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}
