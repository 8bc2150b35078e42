/**
 * The user's redaction rules (issue 40): a `settings` row (key `redaction`, JSON `{keys,
 * patterns}`), the same table as retention and pricing — no migration. The store only keeps
 * them; src/api checks them with the redaction engine before they are saved, and the content
 * ingest reads them before every post (cheap: one cached statement, parsed only on change).
 */
import { NO_USER_RULES, USER_RULE_LIMITS, type UserRedactionRules } from '../shared/redaction.js';
import { connectionOf } from './connection.js';
import type { ReadStore, Store } from './index.js';

const SETTINGS_KEY = 'redaction';

const strings = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.filter((s): s is string => typeof s === 'string').slice(0, USER_RULE_LIMITS.rules)
    : [];

/** The stored JSON text of the rules (null when none were saved), for change checks. */
export function redactionSettingsText(store: ReadStore): string | null {
  const row = connectionOf(store)
    .prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?')
    .get(SETTINGS_KEY);
  return row?.value ?? null;
}

/** The stored rules, or none (also when the stored value is unreadable). */
export function redactionRulesOf(store: ReadStore): UserRedactionRules {
  return parseRedactionRules(redactionSettingsText(store));
}

/** Rules from their stored text; anything unreadable reads as no rules. */
export function parseRedactionRules(text: string | null): UserRedactionRules {
  if (text === null) return { ...NO_USER_RULES };
  try {
    const v = JSON.parse(text) as { keys?: unknown; patterns?: unknown };
    return { keys: strings(v.keys), patterns: strings(v.patterns) };
  } catch {
    return { ...NO_USER_RULES };
  }
}

/** Stores the rules (already checked by the caller). */
export function saveRedactionRules(store: Store, rules: UserRedactionRules): void {
  connectionOf(store)
    .prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    )
    .run(SETTINGS_KEY, JSON.stringify({ keys: rules.keys, patterns: rules.patterns }));
}
