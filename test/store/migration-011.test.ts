import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { rebuildSql } from '../../src/store/metrics/sql.js';
import { prepareMaintainStatements } from '../../src/store/metrics/maintain/statements.js';
import {
  olderFile,
  queryPlan,
  tableRows,
  upgradedAndFresh,
  type OlderCall,
} from '../helpers/older-file.js';

/** The indexes on `calls`, each with its columns in order. */
const callIndexes = (db: Database.Database) =>
  Object.fromEntries(
    db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'calls' ORDER BY name",
      )
      .all()
      .map(({ name }) => [
        name,
        db
          .prepare<[], { name: string }>(
            `SELECT name FROM pragma_index_info('${name}') ORDER BY seqno`,
          )
          .all()
          .map((c) => c.name),
      ]),
  );

// Two sessions, two tools, a retry chain and a late call: facts of every kind.
const CALLS: OlderCall[] = [
  ['s1', 'cursor', 'search', 1_000, 12, 'tool_error', 10, 'aaaaaaaaaaaa'],
  ['s1', 'cursor', 'search', 2_000, 15, 'ok', 30, 'bbbbbbbbbbbb'],
  ['s1', 'cursor', 'read', 3_000, 9, 'ok', 0, 'cccccccccccc'],
  ['s2', 'claude', 'read', 1_500, 40, 'crashed', 0, 'dddddddddddd'],
  ['s1', 'cursor', 'search', 500, 7, 'ok', 5, 'eeeeeeeeeeee'],
];

describe('migration one-session-index', () => {
  it("replaces the two session indexes with one that holds each call's tool and client", () => {
    const { db, index } = olderFile('one-session-index', CALLS);
    const calls = db.prepare('SELECT * FROM calls ORDER BY id').all();
    const facts = tableRows(db, ['metrics_sessions', 'metrics_chains', 'metrics_daily'], 3);
    expect(Object.keys(callIndexes(db))).toContain('calls_by_session_tool');

    expect(migrate(db, MIGRATIONS.slice(0, index + 1))).toBe(MIGRATIONS[index]!.version);

    const indexes = callIndexes(db);
    expect(indexes['calls_by_session_tool']).toBeUndefined();
    expect(indexes['calls_by_session']).toEqual([
      'project_id',
      'session_id',
      'started_ms',
      'id',
      'tool_name',
      'client_name',
    ]);
    expect(db.prepare('SELECT * FROM calls ORDER BY id').all()).toEqual(calls);
    // The facts a full rebuild derives through the new index are the ones stored.
    db.exec(rebuildSql(1, MIGRATIONS[index]!.version));
    expect(tableRows(db, ['metrics_sessions', 'metrics_chains', 'metrics_daily'], 3)).toEqual(
      facts,
    );
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it("reads one tool's calls in a session from the session's index, never the whole table", () => {
    const db = new Database(':memory:');
    migrate(db);
    const st = prepareMaintainStatements(db);
    for (const name of ['toolLast', 'anchorOf', 'groupFrom', 'chainPrefixStats'] as const) {
      const sql = st[name].source;
      expect(queryPlan(db, sql), name).toMatch(/USING (COVERING )?INDEX calls_by_session \(/);
      expect(queryPlan(db, sql), name).not.toMatch(/TEMP B-TREE|SCAN calls\b/);
    }
    db.close();
  });

  it('gives a new file the same indexes as an upgraded one', () => {
    const [upgraded, fresh] = upgradedAndFresh('one-session-index');
    expect(callIndexes(fresh)).toEqual(callIndexes(upgraded));
  });
});
