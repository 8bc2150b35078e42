/**
 * Settings, admin and export: the routes that change data or hand out files. Writes go through
 * `sendApi`, so a 400 arrives as an ApiFailure carrying the server's sentence.
 */
import { apiQuery, type Filters } from '../app/filters';
import { apiPath, sendApi } from './api';
import type { ClearResult, Pricing, Retention, RetentionSettings } from './types';
import type { Api } from './types';

export type { ClearResult, Pricing, Retention, RetentionPass, RetentionSettings } from './types';

/** The exact phrase `POST /api/admin/clear` wants in `confirm`. */
export const CLEAR_PHRASE = 'delete all data';

export const settingsPaths = {
  pricing: apiPath('pricing'),
  retention: apiPath('retention'),
  redaction: apiPath('redaction'),
};

/** The redaction rules in force: built-in (read-only) and the user's. */
export type RedactionRules = Api['redaction'];
/** What the preview answers: the text redacted, and what was found. */
export type RedactionPreview = Api['redactionPreview'];

export const saveRedaction = (rules: {
  keys: string[];
  patterns: string[];
}): Promise<RedactionRules> => sendApi('setRedaction', rules);

/** Redacts `text` on the server with the built-in rules and `rules` (unsaved ones, to try). */
export const previewRedaction = (
  text: string,
  rules: { keys: string[]; patterns: string[] },
): Promise<RedactionPreview> => sendApi('redactionPreview', { text, ...rules });

export const savePricing = (usd: number): Promise<Pricing> =>
  sendApi('setPricing', { usd_per_million_tokens: usd });

export const saveRetention = (update: Partial<RetentionSettings>): Promise<Retention> =>
  sendApi('setRetention', update);

export const clearAllData = (): Promise<ClearResult> => sendApi('clear', { confirm: CLEAR_PHRASE });

export type ExportFormat = 'jsonl' | 'csv' | 'md';

export const EXPORT_FORMATS: { format: ExportFormat; label: string; hint: string }[] = [
  {
    format: 'jsonl',
    label: 'Raw payloads (JSONL, replayable)',
    hint: 'Every accepted payload as sent: replay it with the CLI’s import command',
  },
  { format: 'csv', label: 'Summary (CSV)', hint: 'One row per tool, for a spreadsheet' },
  {
    format: 'md',
    label: 'Summary (Markdown)',
    hint: 'Headline numbers and tools, for a PR or issue',
  },
];

/** `GET /api/export` for the filters (a relative range resolved now) plus a session, if any. */
export function exportPath(f: Filters, format: ExportFormat, session?: string): string {
  return `/api/export${apiQuery(f, { format, session })}`;
}

/**
 * A server validation message without its field prefix, as a sentence for beside the field:
 * `max_calls: expected an integer …` → `Expected an integer …`.
 */
export function fieldMessage(message: string, field: string): string {
  const rest = message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}
