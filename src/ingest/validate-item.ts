import {
  OMITTED_CALL_FIELDS,
  OMITTED_STARTUP_TOOLS,
  type AcceptedAgreement,
  type AcceptedCall,
  type AcceptedStartup,
  type RejectedItem,
} from '../store/batch-record.js';
import { parseTimestamp } from './timestamp.js';
import { stringifyJson } from '../shared/deep-json.js';
import {
  describeZodError,
  KNOWN_AGREEMENT_FIELDS,
  KNOWN_CALL_FIELDS,
  KNOWN_STARTUP_FIELDS,
  payloadSchema,
  type Payload,
} from '../shared/wire.js';
import { fastCall } from './fast-call.js';

/** How much of a rejected item is kept for the ingest log. */
export const REJECTED_ITEM_MAX_CHARS = 4096;

export type ItemVerdict =
  | { kind: 'call'; call: AcceptedCall }
  | { kind: 'startup'; startup: AcceptedStartup }
  | { kind: 'agreement'; agreement: AcceptedAgreement }
  | { kind: 'rejected'; rejection: RejectedItem };

/** Stands in for an unknown field too deep to serialise, so the payload itself is still kept. */
export const UNSERIALISABLE_FIELD = '[dropped: nested too deeply to store]';

function extraFields(
  item: Record<string, unknown>,
  known: Set<string>,
): Record<string, unknown> | null {
  // Most items carry only contract fields: find that out without allocating.
  let unknown = false;
  for (const k in item) {
    if (!known.has(k)) {
      unknown = true;
      break;
    }
  }
  if (!unknown) return null;
  let extra: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(item)) {
    if (known.has(k)) continue;
    // The store writes extras as JSON; a field nested ~10,000 deep overflows JSON.stringify's
    // stack and would fail the whole batch's transaction. Production strips unknown fields and
    // keeps the payload, so keep the payload and say what became of the field.
    let value = v;
    if (v !== null && typeof v === 'object') {
      try {
        JSON.stringify(v);
      } catch {
        value = UNSERIALISABLE_FIELD;
      }
    }
    // defineProperty, so a field named __proto__ is kept as data instead of setting a prototype.
    Object.defineProperty((extra ??= {}), k, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return extra;
}

/** The item as JSON for the log, cut to {@link REJECTED_ITEM_MAX_CHARS}. Never throws. */
export function snapshotItem(item: unknown): { item: string; truncated: boolean } {
  let text: string;
  try {
    // Any depth: a 100,000-deep item is logged by its first characters, not as unserialisable.
    text = item === undefined ? String(item) : stringifyJson(item);
  } catch {
    text = '[unserialisable item]';
  }
  return text.length > REJECTED_ITEM_MAX_CHARS
    ? { item: text.slice(0, REJECTED_ITEM_MAX_CHARS), truncated: true }
    : { item: text, truncated: false };
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A string as the database will hold it. SQLite stores UTF-8, which has no lone surrogates
 * (`"\ud800"` is valid JSON), so the driver writes U+FFFD for them; doing it here keeps what
 * is stored, what is published live and what the derived-facts maintainer looks up the same
 * string — a session id that differed between memory and disk failed the whole batch.
 */
export const wellFormed = (s: string): string =>
  /[\ud800-\udfff]/.test(s) ? s.replace(LONE_SURROGATE, '\ufffd') : s;

/** The optional call fields and their bits, listed once (not an `Object.entries` per call). */
const OMITTED_CALL_BITS = Object.entries(OMITTED_CALL_FIELDS);

/** Which optional call fields the item left out, as the stored mask. */
function omittedCallFields(raw: Record<string, unknown>): number {
  let mask = 0;
  for (const [field, bit] of OMITTED_CALL_BITS) if (raw[field] === undefined) mask |= bit;
  return mask;
}

function reject(index: number, item: unknown, reason: string): ItemVerdict {
  return { kind: 'rejected', rejection: { index, reason, ...snapshotItem(item) } };
}

/**
 * Validates one batch item on its own, as the hosted API does: a bad item is dropped with a
 * dotted-path reason and never affects its neighbours.
 */
export function validateItem(item: unknown, index: number): ItemVerdict {
  try {
    let payload: Payload | null = fastCall(item);
    if (!payload) {
      const parsed = payloadSchema.safeParse(item);
      if (!parsed.success) return reject(index, item, describeZodError(parsed.error));
      payload = parsed.data;
    }
    const raw = item as Record<string, unknown>;
    payload.session_id = wellFormed(payload.session_id);
    if (payload.type !== 'agreement') payload.client_name = wellFormed(payload.client_name);
    if (payload.type === 'startup') {
      for (const tool of payload.tools) tool.name = wellFormed(tool.name);
      const rawTools = Array.isArray(raw.tools) ? (raw.tools as Record<string, unknown>[]) : [];
      return {
        kind: 'startup',
        startup: {
          payload,
          extra: extraFields(raw, KNOWN_STARTUP_FIELDS),
          toolExtras: payload.tools.map((_, i) =>
            extraFields(rawTools[i] ?? {}, new Set(['name', 'schema_bytes'])),
          ),
          omitted: raw.tools === undefined ? OMITTED_STARTUP_TOOLS : 0,
        },
      };
    }
    if (payload.type === 'agreement') {
      payload.field = wellFormed(payload.field);
      payload.tool_a = wellFormed(payload.tool_a);
      payload.tool_b = wellFormed(payload.tool_b);
      // The SDK compares a field only across two different tools; a verdict of a tool against
      // itself is a broken payload, not a finding. Compared as stored (two lone surrogates
      // both become U+FFFD), since the table refuses equal names and would fail the batch.
      if (payload.tool_a === payload.tool_b)
        return reject(index, item, 'tool_b: must differ from tool_a');
      const checkedMs = parseTimestamp(payload.checked_at);
      if (checkedMs === null) return reject(index, item, 'checked_at: Invalid datetime');
      return {
        kind: 'agreement',
        agreement: { payload, checkedMs, extra: extraFields(raw, KNOWN_AGREEMENT_FIELDS) },
      };
    }
    payload.tool_name = wellFormed(payload.tool_name);
    const startedMs = parseTimestamp(payload.started_at);
    if (startedMs === null) return reject(index, item, 'started_at: Invalid datetime');
    return {
      kind: 'call',
      call: {
        payload,
        startedMs,
        extra: extraFields(raw, KNOWN_CALL_FIELDS),
        omitted: omittedCallFields(raw),
      },
    };
  } catch (error) {
    // Pathological items (say, nesting too deep to walk) are rejected, not fatal.
    return reject(
      index,
      item,
      `item could not be validated: ${error instanceof Error ? error.message : 'unknown error'}`,
    );
  }
}
