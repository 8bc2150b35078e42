/**
 * Migration 3: keep the deferred-facts watermark (`derived_through_call_id`, see
 * src/store/derived-queue.ts) at or below the highest call id.
 *
 * SQLite gives a new row `max(id) + 1`, so deleting the newest calls (retention emptying an
 * idle project, say) makes ids run again below a watermark that no longer names a call — and
 * calls arriving afterwards would look maintained when they are not. After any delete at or
 * above the watermark, this lowers it to the highest remaining id (every call up to that one
 * was maintained, being at or below the old watermark).
 */
export const sql = /* sql */ `
CREATE TRIGGER derived_watermark_follows_deletes AFTER DELETE ON calls
WHEN old.id >= (SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'derived_through_call_id')
BEGIN
  UPDATE settings
     SET value = CAST((SELECT coalesce(max(id), 0) FROM calls) AS TEXT)
   WHERE key = 'derived_through_call_id'
     AND CAST(value AS INTEGER) > (SELECT coalesce(max(id), 0) FROM calls);
END;
`;
