/**
 * A project is one ingest key, identified by the key's full SHA-256 (the hosted API's own
 * identity). Its 12-character key prefix is only a label: `mp_live_local_dev` and
 * `mp_live_local_x` share one, and selecting by it merged them.
 *
 * What users type to pick a project (`?project=`, `--project`) is resolved here, most exact
 * first: the key itself, the project's ref (the first 12 hex of the key's SHA-256 — stable
 * across databases — or more of the digest), a row id, and last the key prefix when exactly one
 * project has it. Anything that could mean two projects is refused with the refs to use.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/** Hex digits of the SHA-256 that make a project's ref. */
export const REF_LENGTH = 12;

/** The ref of a key fingerprint: the first 12 hex of its SHA-256. */
export const projectRef = (keySha256: string): string => keySha256.slice(0, REF_LENGTH);

/** A project a value could mean, for the refusal message. */
export interface ProjectCandidate {
  ref: string;
  key_prefix: string;
}

/** Thrown when a project value matches more than one project. */
export class AmbiguousProjectError extends Error {
  constructor(
    readonly value: string,
    readonly candidates: ProjectCandidate[],
  ) {
    super(
      `project '${value}' is ambiguous: ${candidates.length} projects share ${
        /^[0-9a-f]+$/.test(value)
          ? 'this key hash prefix'
          : `the key prefix ${candidates[0]!.key_prefix}`
      } — pick one by its ref: ${candidates.map((c) => c.ref).join(' or ')}`,
    );
  }
}

type Row = { id: number; key_sha256: string; key_prefix: string };

/** Prepares the lookups once; the returned function resolves a value to a project id. */
export function createProjectResolver(
  db: Database.Database,
): (value: string) => number | undefined {
  const bySha = db.prepare<[string], Row>(
    'SELECT id, key_sha256, key_prefix FROM projects WHERE key_sha256 = ?',
  );
  // A hex prefix of the digest: a range scan on the unique index, never a table scan.
  const byShaPrefix = db.prepare<[string, string], Row>(
    'SELECT id, key_sha256, key_prefix FROM projects WHERE key_sha256 >= ? AND key_sha256 < ? ORDER BY key_sha256 LIMIT 10',
  );
  const byId = db.prepare<[number], Row>(
    'SELECT id, key_sha256, key_prefix FROM projects WHERE id = ?',
  );
  const byPrefix = db.prepare<[string], Row>(
    'SELECT id, key_sha256, key_prefix FROM projects WHERE key_prefix = ? ORDER BY key_sha256 LIMIT 10',
  );
  const one = (value: string, rows: Row[]): number | undefined => {
    if (rows.length > 1)
      throw new AmbiguousProjectError(
        value,
        rows.map((r) => ({ ref: projectRef(r.key_sha256), key_prefix: r.key_prefix })),
      );
    return rows[0]?.id;
  };
  return (raw) => {
    const value = raw.trim();
    if (value === '') return undefined;
    // The key itself: hashed here, never stored.
    const keyed = bySha.get(createHash('sha256').update(value, 'utf8').digest('hex'));
    if (keyed) return keyed.id;
    if (/^[0-9a-f]{8,64}$/.test(value)) {
      const upper = `${value}g`; // 'g' sorts after every hex digit
      const rows = byShaPrefix.all(value, upper);
      if (rows.length > 0) return one(value, rows);
    }
    if (/^\d+$/.test(value)) {
      const row = byId.get(Number(value));
      if (row) return row.id;
    }
    return one(value, byPrefix.all(value.slice(0, 12)));
  };
}
