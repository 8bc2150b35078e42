/**
 * The three export formats, shared by `GET /api/export` and `mcpulse-devtools export`:
 * `jsonl` (the raw accepted payloads, replayable), `csv` and `md` (the summary).
 */
import type { ReadStore } from '../store/index.js';
import type { CallFilter } from '../shared/rows.js';
import { exportContentLines, type ContentCounts } from '../store/export-content.js';
import { exportJsonl, type ExportCounts } from '../store/export-jsonl.js';
import { loadSummary, summaryCsv, summaryMarkdown } from './export-summary.js';

export const EXPORT_FORMATS = ['jsonl', 'csv', 'md'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const CONTENT_TYPES: Record<ExportFormat, string> = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

/** What a JSONL export carries beside telemetry: the proxy's content, only when asked. */
export interface ExportOptions {
  content?: boolean;
  /** Counted into when `content` is set. */
  contentCounts?: ContentCounts;
}

/** Telemetry lines, then — when asked — the proxy's content lines. */
function* jsonlWithContent(
  store: ReadStore,
  filter: CallFilter,
  counts: ExportCounts | undefined,
  contentCounts: ContentCounts | undefined,
): Generator<string> {
  yield* exportJsonl(store, filter, counts);
  yield* exportContentLines(store, filter, contentCounts);
}

/** The body of an export, as chunks. */
export function exportBody(
  store: ReadStore,
  filter: CallFilter,
  format: ExportFormat,
  counts?: ExportCounts,
  options: ExportOptions = {},
): { contentType: string; body: Iterable<string> } {
  switch (format) {
    case 'jsonl':
      return {
        contentType: CONTENT_TYPES.jsonl,
        // Content stays on this machine unless asked for: never in a default export.
        body: options.content
          ? jsonlWithContent(store, filter, counts, options.contentCounts)
          : exportJsonl(store, filter, counts),
      };
    case 'csv':
      return { contentType: CONTENT_TYPES.csv, body: [summaryCsv(loadSummary(store, filter))] };
    case 'md':
      return { contentType: CONTENT_TYPES.md, body: [summaryMarkdown(loadSummary(store, filter))] };
  }
}

/** A download name that says what is inside: `mcpulse-s_abc…-2026-12-02.jsonl`. */
export function exportFilename(filter: CallFilter, format: ExportFormat, now: Date): string {
  const scope =
    filter.session ??
    (filter.tool
      ? `tool-${filter.tool}`
      : filter.projectId !== undefined
        ? `project-${filter.projectRef ?? filter.projectId}`
        : 'all');
  const safe = scope.replace(/[^\w.-]+/g, '_').slice(0, 80);
  return `mcpulse-${safe}-${now.toISOString().slice(0, 10)}.${format}`;
}
