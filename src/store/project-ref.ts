/**
 * A project is one ingest key, identified by the key's full SHA-256 (the hosted API's own
 * identity). Its 12-character key prefix is only a label: `mp_live_local_dev` and
 * `mp_live_local_x` share one, and selecting by it merged them.
 *
 * What users type to pick a project (`?project=`, `--project`) is resolved here, most exact
 * first: the key itself (its SHA-256 matched exactly), the project's ref (the first 12 hex of the
 * key's SHA-256 — stable across databases — or more of the digest), a row id, and last the start
 * of a ref or of a key label when exactly one project has it. Anything that could mean two
 * projects is refused with the refs to use; anything that means none is refused by name —
 * never the nearest project (a key never sent once showed another key's calls).
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

/**
 * Thrown when a project value matches no project: a key never sent, a ref or label no project
 * has. Guessing the nearest project showed another key's calls as if they were this one's.
 */
export class UnknownProjectError extends Error {
  constructor(readonly value: string) {
    super(
      `no project '${value.slice(0, 80)}': not a key that has sent anything, a project ref, a row id, or the start of one project's ref or key label (GET /api/projects lists them)`,
    );
  }
}

type Row = { id: number; key_sha256: string; key_prefix: string };

/**
 * Prepares the lookups once; the returned function resolves a value to a project id
 * (`undefined` only for a blank value) and throws {@link UnknownProjectError} or
 * {@link AmbiguousProjectError} for anything else it cannot pin to exactly one project.
 */
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
  // The label is at most 12 characters, so only a value that fits can be the start of one;
  // substr compares exactly (LIKE would treat `_`, common in keys, as a wildcard).
  const byLabelStart = db.prepare<[number, string], Row>(
    'SELECT id, key_sha256, key_prefix FROM projects WHERE substr(key_prefix, 1, ?) = ? ORDER BY key_sha256 LIMIT 10',
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
    // A ref or more of the digest: one project only.
    if (/^[0-9a-f]{12,64}$/.test(value)) {
      const rows = byShaPrefix.all(value, `${value}g`); // 'g' sorts after every hex digit
      if (rows.length > 0) return one(value, rows);
    }
    if (/^\d+$/.test(value)) {
      const row = byId.get(Number(value));
      if (row) return row.id;
    }
    // The start of a ref or of a key label, only when exactly one project has it.
    const candidates = new Map<number, Row>();
    if (/^[0-9a-f]{1,11}$/.test(value))
      for (const r of byShaPrefix.all(value, `${value}g`)) candidates.set(r.id, r);
    if (value.length <= REF_LENGTH)
      for (const r of byLabelStart.all(value.length, value)) candidates.set(r.id, r);
    const id = one(value, [...candidates.values()]);
    if (id === undefined) throw new UnknownProjectError(value);
    return id;
  };
}
