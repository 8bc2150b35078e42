/**
 * The summary as files: CSV (one row per tool) and a markdown report. The numbers come from the
 * summary routes' own handlers — the same code `/api/summary` and `/api/insights` run — so a
 * file can never disagree with the dashboard.
 */
import type { FirstCallErrorInsight } from '../metrics/error-insights.js';
import type { Insight, Summary, ToolSummary } from '../metrics/report.js';
import type { AgreementPairRow } from '../store/agreements.js';
import type { ReadStore } from '../store/index.js';
import { OUTCOME_CLASSES } from '../shared/outcomes.js';
import type { CallFilter } from '../shared/rows.js';
import { metricsSummaryRoutes } from './metrics-summary-routes.js';
import type { ApiContext } from './types.js';

/** What the summary files show. */
export interface SummaryReport {
  summary: Summary & { filter: Record<string, string | number | null> };
  /** The count-based insights and the content ones (proxied calls' error texts). */
  insights: (Insight | FirstCallErrorInsight)[];
  /** Agreement verdicts by field and tool pair (markdown only; absent = none). */
  agreements?: AgreementPairRow[];
}

/** Runs the summary and insights handlers over `store` for `filter`. */
export function loadSummary(store: ReadStore, filter: CallFilter): SummaryReport {
  const ctx: ApiContext = {
    store,
    filter,
    query: new URLSearchParams(),
    params: {},
    body: undefined,
  };
  return {
    summary: metricsSummaryRoutes['GET /api/summary'](ctx),
    insights: metricsSummaryRoutes['GET /api/insights'](ctx).insights,
    agreements: store.read.agreements.pairs(filter),
  };
}

const pct = (r: number | null): string => (r === null ? '—' : `${(r * 100).toFixed(1)}%`);
const num = (n: number | null, digits = 0): string =>
  n === null
    ? '—'
    : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
const ms = (n: number | null): string => (n === null ? '—' : `${num(n)} ms`);

type Field = string | number | boolean | null;

/** RFC 4180 field: quoted when it holds a comma, quote or line break. */
function csvField(v: Field): string {
  const s = v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

type Column = [name: string, get: (t: ToolSummary) => Field];
/** The tool fields a column shows as they are, under their own name. */
type ScalarField = {
  [K in keyof ToolSummary]: ToolSummary[K] extends Field ? K : never;
}[keyof ToolSummary];
const asIs = (...fields: ScalarField[]): Column[] => fields.map((f) => [f, (t) => t[f]]);

const CSV_COLUMNS: Column[] = [
  ['tool', (t) => t.name],
  ...asIs('registered', 'dead', 'schema_bytes', 'calls', 'first_call_successes'),
  ['first_call_success_rate', (t) => t.first_call_success.rate],
  ...asIs('retries', 'repeats', 'retry_chains'),
  ...OUTCOME_CLASSES.map((o): Column => [o, (t) => t.outcomes[o]]),
  ...asIs(
    'error_rate',
    'empty_rate',
    'avg_response_bytes',
    'p50_ms',
    'p95_ms',
    'p99_ms',
    'p95_bucket',
  ),
];

/** One header row, then one row per tool (rates as fractions, empty when there is none). */
export function summaryCsv({ summary }: SummaryReport): string {
  const rows = [CSV_COLUMNS.map(([name]) => name).join(',')];
  for (const t of summary.tools)
    rows.push(CSV_COLUMNS.map(([, get]) => csvField(get(t))).join(','));
  return `${rows.join('\r\n')}\r\n`;
}

/** Escapes what would break a markdown table cell. */
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function describeFilter(f: Record<string, string | number | null>): string {
  // A project is named by its ref with the key prefix as its label, not the local row id.
  const { project, project_ref, project_label, ...rest } = f;
  const named =
    project_ref !== null && project_ref !== undefined
      ? { project: `${project_ref} (key ${project_label})` }
      : { project: project ?? null };
  const parts = Object.entries({ ...named, ...rest })
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k} ${v}`);
  return parts.length ? parts.join(', ') : 'everything stored';
}

/** Cross-tool agreement, only when an SDK sent verdicts: diverged pairs first. */
function agreementLines(pairs: AgreementPairRow[]): string[] {
  if (pairs.length === 0) return [];
  return [
    '## Agreement between tools',
    '',
    '| Field | Tools | Checks | Diverged | Latest |',
    '| --- | --- | ---: | ---: | --- |',
    ...pairs.map(
      (p) =>
        `| ${cell(p.field)} | ${cell(p.tool_a)} vs ${cell(p.tool_b)} | ${num(p.checks)} | ${num(p.diverged)} | ${p.last_agreed ? 'agreed' : 'diverged'} |`,
    ),
    '',
  ];
}

/** The summary as a markdown report: totals, outcomes, latency, tools, insights. */
export function summaryMarkdown(
  { summary: s, insights, agreements = [] }: SummaryReport,
  title = 'MCPulse report',
): string {
  const fcs = s.first_call_success;
  const o = s.outcomes;
  const lines = [
    `# ${title}`,
    '',
    `Scope: ${describeFilter(s.filter)}.`,
    '',
    '| | |',
    '|---|---|',
    `| Calls | ${num(s.calls)} in ${num(s.sessions)} sessions from ${num(s.clients)} clients |`,
    `| First-call success | ${pct(fcs.rate)} (${num(fcs.successes)} of ${num(fcs.calls)}) |`,
    `| Retries | ${num(s.retries)} calls retried, ${num(s.retry_chains)} retry chains |`,
    `| Error rate | ${pct(s.error_rate)} (${num(s.errors)} calls) |`,
    `| Empty rate | ${pct(s.empty_rate)} |`,
    `| Latency | p50 ${ms(s.latency.p50_ms)}, p95 ${ms(s.latency.p95_ms)}, p99 ${ms(s.latency.p99_ms)} |`,
    `| Registered tools | ${num(s.registered_tools)} (${num(s.schema_bytes)} schema bytes), ${num(s.dead_tools)} never called, ${num(s.unregistered_tools)} called but not registered |`,
    '',
    '## Outcomes',
    '',
    '| ok | empty | bad_args | tool_error | crashed |',
    '|---:|---:|---:|---:|---:|',
    `| ${num(o.ok)} | ${num(o.empty)} | ${num(o.bad_args)} | ${num(o.tool_error)} | ${num(o.crashed)} |`,
    '',
    '## Latency',
    '',
    '| < 100 ms | < 500 ms | < 2 s | ≥ 2 s | p95 bucket |',
    '|---:|---:|---:|---:|---|',
    `| ${num(s.latency.buckets.under_100)} | ${num(s.latency.buckets.under_500)} | ${num(s.latency.buckets.under_2000)} | ${num(s.latency.buckets.over_2000)} | ${s.latency.p95_bucket ?? '—'} |`,
    '',
    '## Tools',
    '',
    '| Tool | Calls | First-call success | Retries | ok | empty | bad_args | tool_error | crashed | Avg response | p95 | Schema |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...s.tools.map(
      (t) =>
        `| ${cell(t.name)}${t.dead ? ' (never called)' : t.registered ? '' : ' (not registered)'} | ${num(t.calls)} | ${pct(t.first_call_success.rate)} | ${num(t.retries)} | ${num(t.outcomes.ok)} | ${num(t.outcomes.empty)} | ${num(t.outcomes.bad_args)} | ${num(t.outcomes.tool_error)} | ${num(t.outcomes.crashed)} | ${num(t.avg_response_bytes)} | ${ms(t.p95_ms)} | ${t.schema_bytes === null ? '—' : num(t.schema_bytes)} |`,
    ),
    '',
    '## Insights',
    '',
    ...(insights.length
      ? insights.map((i) => `- **${i.severity}** ${cell(i.message)}`)
      : ['None.']),
    '',
    ...agreementLines(agreements),
  ];
  return lines.join('\n');
}
