/**
 * The text that replaces a redacted value: `[redacted: KIND]`, where KIND names what was found
 * (`github-token`, `key-name`, …) so the UI can show a marker per value. Markers are plain
 * ASCII with no character JSON escapes, so a marker inside a JSON string is the same bytes
 * decoded or not, and JSON stays valid after redaction. `[redacted]` (no kind) is what the
 * proxy wrote before kinds existed; it is still recognised. The engine that writes markers is
 * src/redact; this is the part the renderer reads them with.
 */

/** The marker for one kind of finding. */
export const marker = (kind: string): string => `[redacted: ${kind}]`;

/** Every marker in a text, old and new; group 1 is the kind when there is one. */
export const MARKER_PATTERN = /\[redacted(?:: ([a-z0-9][a-z0-9:._-]{0,63}))?\]/g;

/** A marker's place in a text. */
export interface MarkerAt {
  start: number;
  end: number;
  kind: string;
}

/** The markers in `text`, in order. */
export function markersIn(text: string): MarkerAt[] {
  const out: MarkerAt[] = [];
  for (const m of text.matchAll(MARKER_PATTERN))
    out.push({ start: m.index, end: m.index + m[0].length, kind: m[1] ?? 'key-name' });
  return out;
}

/** How many values of each kind `text` has redacted (for "N values redacted"). */
export function countMarkers(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of markersIn(text)) counts[m.kind] = (counts[m.kind] ?? 0) + 1;
  return counts;
}

/**
 * A kind as a marker may carry it: lower case, digits and `-`, at most 40 characters. User
 * rules name their kind; anything else in the name is folded to `-`.
 */
export function kindName(name: string): string {
  const k = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return k || 'user-pattern';
}

/** The user's own rules (Settings, `PUT /api/settings/redaction`; `proxy --redact`). */
export interface UserRedactionRules {
  /** More key names whose string values are redacted (case-insensitive substrings). */
  keys: string[];
  /**
   * Regular expressions (JavaScript syntax; `/source/flags` or a bare source). A named group
   * `secret` limits the redaction to that part of the match; otherwise the whole match goes.
   */
  patterns: string[];
}

/** No user rules. */
export const NO_USER_RULES: UserRedactionRules = { keys: [], patterns: [] };

/** Limits on user rules: enough for real use, bounded for a settings row and a scan. */
export const USER_RULE_LIMITS = { rules: 50, keyLength: 100, patternLength: 300 } as const;
