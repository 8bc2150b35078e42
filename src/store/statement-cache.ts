import type Database from 'better-sqlite3';

/**
 * Prepares each distinct SQL text once per connection. Queries whose WHERE clause depends on
 * which filters are present have a handful of shapes, so the cache stays small while every
 * shape is compiled only the first time it is used.
 */
export function statementCache(db: Database.Database): (sql: string) => Database.Statement {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}
