/**
 * The check that the live schema still matches the rollups the maintainer declares
 * (../maintain/rollup-tables.ts): if the engine gains a table or column the declarations do
 * not know, subtracting would leave it wrong, so forgetting falls back to the rebuild.
 */
import type Database from 'better-sqlite3';
import { ROLLUPS } from '../maintain/rollup-tables.js';
import { DERIVED_TABLES } from '../sql.js';

/** Derived tables the forget hook keeps exact; anything else in DERIVED_TABLES disables it. */
const KNOWN = new Set([...ROLLUPS.map((r) => r.table), 'metrics_sessions', 'metrics_chains']);

/**
 * True when the database's derived tables and rollup columns are exactly the ones declared
 * here, so subtracting a forgotten call's contribution leaves every one of them exact.
 */
export function schemaIsKnown(db: Database.Database): boolean {
  const columnsOf = (t: string): string[] =>
    db
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${t}')`)
      .all()
      .map((c) => c.name);
  const sameSet = (a: string[], b: string[]) =>
    a.length === b.length && a.every((x) => b.includes(x));
  return (
    DERIVED_TABLES.every((t) => KNOWN.has(t)) &&
    ROLLUPS.every((r) => sameSet(columnsOf(r.table), [...r.keys, ...r.sums]))
  );
}
