/**
 * Migration 6: requests that were not an ingest, and fields an SDK left out.
 *
 * - The ingest log keeps every POST that missed `/v1/ingest` (an endpoint option that already
 *   ends in `/v1/ingest`, `/ingest`, a trailing slash, a wrong method): its `method` and `path`
 *   (NULL = `/v1/ingest`, every row before this migration), a `hint` saying what to change,
 *   and `repeats` / `last_received_ms` so a flood of identical refusals is one row that counts,
 *   not a row each.
 * - `omitted` on calls and startups is a mask of the optional fields the payload did not carry
 *   (Go's `omitempty`: `duration_ms` 1, `response_bytes` 2, `is_empty` 4; a startup's `tools` 1),
 *   so an export writes the payload back as the SDK sent it instead of spelling out zeros.
 */
export const sql = /* sql */ `
ALTER TABLE batches ADD COLUMN method TEXT;
ALTER TABLE batches ADD COLUMN path TEXT;
ALTER TABLE batches ADD COLUMN hint TEXT;
ALTER TABLE batches ADD COLUMN repeats INTEGER NOT NULL DEFAULT 1 CHECK (repeats >= 1);
ALTER TABLE batches ADD COLUMN last_received_ms INTEGER;
-- Setup shows the newest misdirected request: found without scanning the log.
CREATE INDEX batches_misdirected ON batches(id) WHERE path IS NOT NULL;

ALTER TABLE calls ADD COLUMN omitted INTEGER NOT NULL DEFAULT 0 CHECK (omitted BETWEEN 0 AND 7);
ALTER TABLE startups ADD COLUMN omitted INTEGER NOT NULL DEFAULT 0 CHECK (omitted BETWEEN 0 AND 1);
`;
