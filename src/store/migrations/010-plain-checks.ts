/**
 * Migration 10: CHECK constraints written as comparisons instead of `IN (…)` lists.
 *
 * SQLite codes a CHECK such as `outcome IN ('ok', 'bad_args', 'tool_error', 'crashed')` as a
 * temporary b-tree of the listed values, built again on every execution of an INSERT or UPDATE
 * statement — and ingest executes one per call. The constraints of `calls` cost ~23,000
 * instructions per inserted row, about a third of the whole insert with its four indexes
 * (valgrind's instruction counts; 1.2 µs of 4.5 µs for the bare row, docs/benchmarks-history.md).
 * Written as `outcome = 'ok' OR outcome = 'bad_args' OR …`, the same rule costs a few
 * comparisons.
 *
 * The rule is the same, so the rows on disk need nothing: only the table's text in
 * `sqlite_schema` changes, the documented way (lang_altertable.html, "Making Other Kinds Of
 * Table Schema Changes"): with `writable_schema`, then `schema_version` moved on so every
 * connection reads the new text. A file of a million calls upgraded in 9 ms, and the time does
 * not grow with the rows; copying the table would take minutes and twice its space.
 */
import type Database from 'better-sqlite3';

/** `CHECK (column IN (a, b, …))` over plain literals (quoted text or integers). */
const IN_LIST_CHECK = /CHECK \((\w+) IN \(((?:'[^']*'|-?\d+)(?:, (?:'[^']*'|-?\d+))*)\)\)/g;

/** `CHECK (column IN (a, b))` → `CHECK (column = a OR column = b)`; anything else unchanged. */
export function plainChecks(tableSql: string): string {
  return tableSql.replace(IN_LIST_CHECK, (_, column: string, list: string) => {
    const values = list.match(/'[^']*'|-?\d+/g)!;
    return `CHECK (${values.map((v) => `${column} = ${v}`).join(' OR ')})`;
  });
}

export const sql = '';

/** Rewrites every table whose CHECK constraints use `IN` lists (inside the migration's transaction). */
export function run(db: Database.Database): void {
  const tables = db
    .prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%CHECK (% IN (%'",
    )
    .all()
    .map((t) => ({ name: t.name, before: t.sql, sql: plainChecks(t.sql) }))
    .filter((t) => t.sql !== t.before);
  if (tables.length === 0) return;
  const version = db.pragma('schema_version', { simple: true }) as number;
  // better-sqlite3 runs connections in SQLite's defensive mode, which forbids writing the
  // schema table; it is lifted for these statements only.
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    const update = db.prepare("UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = ?");
    for (const t of tables) update.run(t.sql, t.name);
    db.pragma(`schema_version = ${version + 1}`);
  } finally {
    // RESET also makes this connection read the schema again.
    db.pragma('writable_schema = RESET');
    db.unsafeMode(false);
  }
}
