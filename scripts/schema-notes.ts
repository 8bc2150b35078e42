/**
 * What docs/schema.md says in words: one paragraph per table and one line per migration, read
 * from the migrations that created them (src/store/migrations). The columns, indexes, keys and
 * triggers are read from a migrated database (scripts/schema-doc.ts); only what a database
 * cannot say lives here. A table or migration missing from these maps stops the generator, so
 * the next migration cannot ship without its words.
 */

/** The sections of docs/schema.md, in order; each table belongs to one. */
export const GROUPS = [
  'Telemetry as received',
  'Ingest log',
  'Proxy content',
  'Metrics: totals and rebuild marks',
  'Metrics: rollups',
  'Housekeeping',
] as const;

/** One table's section and description. */
export interface TableNote {
  group: (typeof GROUPS)[number];
  text: string;
}

// Shared wording of the rollups' keys and counters (docs/metrics.md defines the terms).
const OC = '`oc` is the outcome class (0 ok, 1 empty, 2 bad_args, 3 tool_error, 4 crashed)';
const LINK =
  '`link` the call’s link to the next same-tool call of its session (0 none, 1 retry, 2 repeat, 3 unknown)';
const STATS =
  '`calls` counts the calls, `units` sums their `response_bytes`, `duration` their `duration_ms`, ' +
  'and `l0`–`l3` count them by latency band (< 100, 100–499, 500–1,999, ≥ 2,000 ms)';
const FINE = 'fine latency `bucket` (the exact value below 32 ms, then 16 buckets per doubling)';

/** Every table of the current schema, by name. */
export const TABLE_NOTES: Record<string, TableNote> = {
  projects: {
    group: 'Telemetry as received',
    text: 'One row per ingest key seen. The key itself is never stored: only its SHA-256 (`key_sha256`, unique) and its first 12 characters (`key_prefix`), as the hosted API keeps them. Every other table’s `project_id` points here, and deleting a project removes its rows everywhere (`ON DELETE CASCADE`).',
  },
  startups: {
    group: 'Telemetry as received',
    text: 'One row per startup payload (a server announcing its tools), in arrival order (`id`): session, client, the batch that carried it, and unknown fields of newer SDKs as JSON in `extra`. `omitted` is a mask of the optional fields the payload left out (`tools` 1), so an export writes it back as sent.',
  },
  startup_tools: {
    group: 'Telemetry as received',
    text: 'The tools a startup listed, in their order (`position`): name and schema size in UTF-16 code units (`schema_bytes`). `extra` keeps the per-tool fields newer SDKs add (schema and description hashes, policy); the partial index `startup_tools_with_extra` reads a tool’s fingerprints across startups.',
  },
  calls: {
    group: 'Telemetry as received',
    text: 'One row per tool call, in arrival order (`id`, the tiebreak for equal `started_ms`): session, client, tool, `started_at` exactly as sent and `started_ms` (UTC epoch ms), duration, outcome, response size, emptiness and the arguments’ hash. `extra` keeps unknown fields as JSON and `omitted` the mask of optional fields the payload left out (`duration_ms` 1, `response_bytes` 2, `is_empty` 4), so an export replays the payload. The columns added by migration 2 are per-call facts kept exact at ingest (src/store/derived.ts): `link`/`prev_link` to the next/from the previous same-tool call of the session (0 none, 1 retry, 2 repeat, 3 unknown), `fcs` (first-call success), `run_id` (the first call of its ≤ 30 s run), `chain` (the run holds a retry), `prev_tool` (for tool pairs) and `size_bucket`.',
  },
  agreements: {
    group: 'Telemetry as received',
    text: 'Agreement verdicts (`type: "agreement"`, PHP SDK 0.1.6, a port of the TypeScript SDK’s cross-tool check): two tools returned one declared `field`, and the SDK says whether the values agreed. Only the verdict is sent, so only the verdict is stored, with `checked_at` as sent and `checked_ms`.',
  },
  batches: {
    group: 'Ingest log',
    text: 'Every POST the server received, answered or refused, so nothing is dropped silently: the HTTP `status` answered, how many items were accepted and rejected, the body size, a whole-batch refusal message and the user agent. A POST that missed `/v1/ingest` keeps its `method` and `path` (NULL means `/v1/ingest`) and a `hint` saying what to change; identical refusals are one row whose `repeats` and `last_received_ms` count them.',
  },
  rejections: {
    group: 'Ingest log',
    text: 'Items dropped one by one from an otherwise accepted batch, or a refused batch’s reason (`item_index` NULL): the dotted path and message production would give (`reason`) and the item as JSON, cut to a few KB (`truncated`).',
  },
  spool: {
    group: 'Ingest log',
    text: 'Acknowledged ingest requests waiting to be applied (src/store/spool.ts) when SDKs send faster than the metrics engine keeps up: the raw body exactly as received, the key’s hash and prefix, the user agent and the number of payloads. A row lives only between the acknowledgement and the transaction that applies and deletes it, so nothing is counted twice or lost to a crash. No index: rows are read and deleted in `id` order.',
  },
  proxy_messages: {
    group: 'Proxy content',
    text: 'Every JSON-RPC message the MCP proxy relayed (src/shared/proxy-content.ts), kept on this machine beside the telemetry: session, sequence number (unique per session, so a retried post stores nothing twice), direction, when the proxy saw it, method, JSON-RPC id, kind, the body redacted by the proxy (cut to 256 KB when `truncated`), the original size, and the `started_at` of the call payload it belongs to, by which a stored call finds its request and answer.',
  },
  proxy_sessions: {
    group: 'Proxy content',
    text: 'What client and server said at `initialize` in one proxied session: protocol version, transport, names, versions, capabilities (JSON, as sent) and the server’s instructions.',
  },
  proxy_unanswered: {
    group: 'Proxy content',
    text: 'Requests still unanswered when a proxied session ended cleanly: JSON-RPC id, method, the tool asked for (for `tools/call`) and when it was sent.',
  },
  metrics_startup_totals: {
    group: 'Metrics: totals and rebuild marks',
    text: 'Each startup’s tool count and total schema size, kept by the trigger `metrics_startup_tool_added` as its tools are written.',
  },
  metrics_dirty: {
    group: 'Metrics: totals and rebuild marks',
    text: 'Projects whose derived facts and rollups must be rebuilt because calls were deleted: the trigger `metrics_calls_deleted` marks the project on any delete from `calls`, and retention’s hook (src/store/metrics/forget.ts) lifts the mark when it could subtract a clean cut from the rollups itself. The next write or metrics read rebuilds a marked project exactly.',
  },
  metrics_daily: {
    group: 'Metrics: rollups',
    text: `Call statistics by UTC day, keyed by (project, \`day_ms\`, tool, client, \`oc\`, \`link\`, \`head\`): ${OC}, ${LINK}, \`head\` 1 for the first call of a retry chain. ${STATS}. Beside the daily rows are all-time twins (\`day_ms\` = -1), so an all-time view reads a few thousand rows whatever the data size.`,
  },
  metrics_hour_stats: {
    group: 'Metrics: rollups',
    text: `\`metrics_daily\`’s rows by UTC hour (\`hour_ms\`), same key and counters, no all-time rows: the edge hours of a time range, and a tool’s time series through \`metrics_hour_stats_by_tool\`. ${STATS}.`,
  },
  metrics_hourly: {
    group: 'Metrics: rollups',
    text: `The hourly series without tool or client, keyed by (project, \`hour_ms\`, \`oc\`, \`link\`): \`calls\` and \`units\` (sum of \`response_bytes\`). Hours compose into the viewer’s local days. ${OC}, ${LINK}.`,
  },
  metrics_sessions: {
    group: 'Metrics: rollups',
    text: 'One row per (project, session, client), so the sessions list never scans calls: first and last start, the last end (`last_end_ms`), `calls`, the count of each outcome class (`ok`, `empty`, `bad_args`, `tool_error`, `crashed`), first-call successes (`fcs`), `retries`, `repeats` and `unknown_links` (links by kind), `chains` (retry-chain heads), `units`, total `duration` and `slow` calls (≥ 2,000 ms).',
  },
  metrics_session_hours: {
    group: 'Metrics: rollups',
    text: 'Calls per (project, `hour_ms`, session, client): the distinct sessions of a time range without reading its calls.',
  },
  metrics_tool_session_hours: {
    group: 'Metrics: rollups',
    text: 'Calls per (project, tool, `hour_ms`, session, client): a coarse index of one tool’s calls. A tool’s distinct sessions are read from it alone, and its calls by one seek per (session, hour) in `calls_by_session`.',
  },
  metrics_pairs: {
    group: 'Metrics: rollups',
    text: 'Consecutive calls A → B (A ≠ B) in a session, counted (`n`) per (project, `day_ms`, client, `from_tool`, `to_tool`) on B’s day and client, with all-time twins (`day_ms` = -1).',
  },
  metrics_sizes: {
    group: 'Metrics: rollups',
    text: 'Response sizes per (project, `day_ms`, tool, client, log size `bucket`, src/metrics/sizes.ts): `n` calls and their `units` (sum of `response_bytes`), with all-time twins (`day_ms` = -1).',
  },
  metrics_latency: {
    group: 'Metrics: rollups',
    text: `All-time calls per (project, tool, ${FINE}), and for all tools together (\`tool_name\` ''): where a percentile’s rank falls, before that bucket is read exactly.`,
  },
  metrics_latency_days: {
    group: 'Metrics: rollups',
    text: `Calls per (project, tool, \`day_ms\`, ${FINE}): \`n\` and the sum of their durations (\`ms\`). Where a range’s percentile ranks fall, and the duration histogram’s counts and sums.`,
  },
  metrics_latency_hours: {
    group: 'Metrics: rollups',
    text: `\`metrics_latency_days\` by \`hour_ms\`, also for all tools together (\`tool_name\` ''), which a time series’ p95 per bucket reads.`,
  },
  metrics_durations: {
    group: 'Metrics: rollups',
    text: 'All-time calls per (project, exact `duration_ms`), all tools: the exact value inside a fine latency bucket.',
  },
  metrics_duration_days: {
    group: 'Metrics: rollups',
    text: 'Calls per (project, tool, `day_ms`, exact `duration_ms`): a fine bucket’s exact values over whole days, one index seek per day. New calls touch only their tool’s current day.',
  },
  metrics_duration_hours: {
    group: 'Metrics: rollups',
    text: '`metrics_duration_days` by `hour_ms`: the exact values of a range’s edge hours.',
  },
  metrics_chains: {
    group: 'Metrics: rollups',
    text: 'One row per retry chain, keyed by `run_id` (the id of its first call; client and time are the first call’s): session, tool, first and last start, the end of its last attempt (`last_end_ms`), `calls`, `retries`, `repeats`, `unknown_links`, whether the last attempt succeeded with a non-empty answer (`resolved`) and its id (`tail_id`).',
  },
  retention_deleted: {
    group: 'Housekeeping',
    text: 'What retention has deleted, one row per kind of row (`calls`, `startups`, `batches`, `rejections`, `agreements`, `content`) with the count and when retention first and last deleted one, so `stored + deleted by retention = acknowledged` holds exactly across passes and restarts. Clear-all empties it with the data.',
  },
  settings: {
    group: 'Housekeeping',
    text: 'Key–value settings, values as JSON text: `retention` (the retention policy), `metrics.usd_per_million_tokens` (the token price) and `derived_through_call_id` (the watermark up to which deferred per-call facts are maintained, src/store/derived-queue.ts; the trigger `derived_watermark_follows_deletes` on `calls` keeps it at or below the highest call id).',
  },
};

/** One line per migration, by version. */
export const MIGRATION_NOTES: Record<number, string> = {
  1: 'Projects, the ingest log (batches, rejections), startups with their tools, calls and settings; every table STRICT.',
  2: 'The metrics engine: derived per-call columns on `calls`, the rollups, covering indexes, triggers, and a backfill.',
  3: 'A trigger keeping the deferred-facts watermark at or below the highest call id when calls are deleted.',
  4: 'The ingest spool: acknowledged requests waiting to be applied.',
  5: 'Agreement verdicts, and an index of startups’ per-tool fingerprints.',
  6: 'What the proxy keeps: relayed messages, sessions’ `initialize`, unanswered requests.',
  7: 'Misdirected POSTs in the ingest log (method, path, hint, repeats); `omitted` masks on calls and startups.',
  8: 'Hourly and daily rollups for any time range; drops `metrics_latency_hourly`.',
  9: 'Exact durations per tool by day and hour; `calls_by_tool_time` replaces `calls_by_tool_duration`.',
  10: 'CHECK constraints rewritten from `IN (…)` lists to comparisons (same rules, cheaper inserts).',
  11: 'One `calls_by_session` index serves both session reads; drops `calls_by_session_tool`.',
  12: 'Retention totals kept in the file.',
  13: '`metrics_tool_session_hours` and a narrow `calls_by_time`; drops `calls_by_tool_time`.',
};
