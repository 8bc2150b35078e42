/**
 * The retention setting: a `settings` row (key `retention`, JSON), validated strictly — a value
 * outside its bounds is refused rather than clamped, so the user never gets a cap they did not
 * ask for.
 */
import type Database from 'better-sqlite3';
import { stringifyJson } from '../../shared/deep-json.js';

/** The retention setting, as stored (JSON) and served by the API. */
export interface RetentionSettings {
  /** Keep at most this many calls. */
  max_calls: number;
  /** Delete calls (and log entries) that arrived more than this many days ago. */
  max_age_days: number;
}

/** The caps used until the user sets others. */
export const DEFAULT_RETENTION: Readonly<RetentionSettings> = {
  max_calls: 2_000_000,
  max_age_days: 30,
};

/** Accepted ranges; anything outside is refused rather than clamped. */
export const RETENTION_BOUNDS = {
  max_calls: { min: 1_000, max: 1_000_000_000 },
  max_age_days: { min: 1, max: 3_650 },
} as const;

const SETTINGS_KEY = 'retention';

/** A setting that failed validation; the message names the field. */
export class RetentionSettingsError extends Error {}

/** Validates a partial update against the current settings; throws {@link RetentionSettingsError}. */
export function mergeRetentionSettings(
  current: RetentionSettings,
  update: unknown,
): RetentionSettings {
  if (typeof update !== 'object' || update === null || Array.isArray(update)) {
    throw new RetentionSettingsError(
      'expected a JSON object such as {"max_calls":2000000,"max_age_days":30}',
    );
  }
  const next = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (key !== 'max_calls' && key !== 'max_age_days') {
      throw new RetentionSettingsError(
        `${key}: unknown setting (expected max_calls or max_age_days)`,
      );
    }
    const { min, max } = RETENTION_BOUNDS[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new RetentionSettingsError(
        `${key}: expected an integer from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}, received ${stringifyJson(value).slice(0, 80)}`,
      );
    }
    next[key] = value;
  }
  return next;
}

/** The stored setting, or the defaults (also when the stored value is unreadable). */
export function readRetentionSettings(db: Database.Database): RetentionSettings {
  const row = db
    .prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?')
    .get(SETTINGS_KEY);
  if (!row) return { ...DEFAULT_RETENTION };
  try {
    return mergeRetentionSettings(DEFAULT_RETENTION, JSON.parse(row.value));
  } catch {
    return { ...DEFAULT_RETENTION };
  }
}

/** Validates and stores a partial update; returns the new settings. */
export function writeRetentionSettings(db: Database.Database, update: unknown): RetentionSettings {
  const next = mergeRetentionSettings(readRetentionSettings(db), update);
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(SETTINGS_KEY, JSON.stringify(next));
  return next;
}
