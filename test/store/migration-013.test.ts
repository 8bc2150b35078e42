import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { TABLES } from '../../src/store/migrations/013-narrow-time-index.js';
import { toolCalls } from '../../src/store/metrics/queries/tool-calls.js';
import { hourStatsIndex } from '../../src/store/metrics/queries/sql-parts.js';
import {
  callIndexNames,
  expectBackfillHolds,
  type OlderCall,
  olderFile,
  queryPlan,
  tableRows,
  upgradedAndFresh,
} from '../helpers/older-file.js';

const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 10, 3, 22, 10);

/**
 * A version-12 database: 300 calls over four hours, five sessions (s4 under two clients), three
 * tools, its rollups filled as version 12 kept them.
 */
const older = () =>
  olderFile(
    'narrow-time-index',
    Array.from({ length: 300 }, (_, i): OlderCall => [
      `s${i % 5}`,
      i % 5 === 4 && i % 2 === 0 ? 'claude' : 'cursor',
      `tool_${i % 3}`,
      BASE + Math.floor((i * 4 * HOUR) / 300),
      5 + (i % 17),
      i % 11 === 0 ? 'tool_error' : 'ok',
      10,
      'aaaaaaaaaaaa',
    ]),
  );

describe('migration narrow-time-index', () => {
  it("counts each tool's calls by hour, session and client, and drops the tool-order index", () => {
    const { db, index } = older();
    const calls = db.prepare('SELECT * FROM calls ORDER BY id').all();
    expect(callIndexNames(db)).toContain('calls_by_tool_time');

    expect(migrate(db, MIGRATIONS.slice(0, index + 1))).toBe(MIGRATIONS[index]!.version);

    expect(callIndexNames(db)).toEqual([
      'calls_by_session',
      'calls_by_time',
      'calls_chain_members',
    ]);
    expect(db.prepare('SELECT * FROM calls ORDER BY id').all()).toEqual(calls);
    const migrated = tableRows(db, TABLES, 5);
    expect(db.prepare('SELECT sum(calls) AS n FROM metrics_tool_session_hours').get()).toEqual({
      n: 300,
    });
    // Every (tool, hour, session, client) with calls has its row, counted exactly.
    const byKey = db.prepare(
      `SELECT count(*) AS n FROM (SELECT tool_name, started_ms / ${HOUR} * ${HOUR} AS h, session_id, client_name,
         count(*) AS k FROM calls GROUP BY 1, 2, 3, 4) c
       JOIN metrics_tool_session_hours t ON t.tool_name = c.tool_name AND t.hour_ms = c.h
         AND t.session_id = c.session_id AND t.client_name = c.client_name AND t.calls = c.k`,
    );
    expect(byKey.get()).toEqual({
      n: (db.prepare('SELECT count(*) AS n FROM metrics_tool_session_hours').get() as { n: number })
        .n,
    });
    expect(
      db
        .prepare(
          "SELECT DISTINCT client_name FROM metrics_tool_session_hours WHERE session_id = 's4' ORDER BY 1",
        )
        .pluck()
        .all(),
    ).toEqual(['claude', 'cursor']);
    // What the backfill wrote is what a full rebuild computes; STRICT; keyed by project.
    expectBackfillHolds(
      db,
      MIGRATIONS[index]!.version,
      TABLES,
      5,
      migrated,
      'metrics_tool_session_hours',
      'calls',
    );
  });

  it("reads one tool's calls through its hours and the session index, never the whole table", () => {
    const { db, index } = older();
    migrate(db, MIGRATIONS.slice(0, index + 1));
    const read = `SELECT session_id, started_ms FROM ${toolCalls({ from: '@from', to: '@to' })}
      WHERE project_id = @projectId AND tool_name = @tool AND started_ms >= @from AND started_ms < @to`;
    const steps = queryPlan(db, read);
    expect(steps).toMatch(
      /SEARCH h USING PRIMARY KEY \(project_id=\? AND tool_name=\? AND hour_ms>\? AND hour_ms<\?\)/,
    );
    expect(steps).toMatch(
      /SEARCH c USING COVERING INDEX calls_by_session \(project_id=\? AND session_id=\? AND started_ms>\? AND started_ms<\?\)/,
    );
    expect(steps).not.toMatch(/SCAN/);
    // And it finds exactly the tool's calls in the range, across clients and hour edges.
    const params = { projectId: 1, tool: 'tool_1', from: BASE + 30 * 60_000, to: BASE + 3 * HOUR };
    const got = db.prepare(`${read} ORDER BY started_ms, session_id`).all(params);
    const want = db
      .prepare(
        `SELECT session_id, started_ms FROM calls WHERE project_id = @projectId AND tool_name = @tool
           AND started_ms >= @from AND started_ms < @to ORDER BY started_ms, session_id`,
      )
      .all(params);
    expect(got.length).toBeGreaterThan(50);
    expect(got).toEqual(want);
    db.close();
  });

  it("reads hourly stat rows by hour, and one tool's by its index", () => {
    const { db, index } = older();
    migrate(db, MIGRATIONS.slice(0, index + 1));
    const read = (f: { tool?: string }) =>
      queryPlan(
        db,
        `SELECT tool_name, oc, sum(calls) FROM metrics_hour_stats ${hourStatsIndex(f)}
         WHERE project_id = @p AND hour_ms >= @from AND hour_ms < @to
           ${f.tool !== undefined ? 'AND tool_name = @tool' : ''} GROUP BY 1, 2`,
      );
    expect(read({})).toMatch(/USING PRIMARY KEY \(project_id=\? AND hour_ms>\? AND hour_ms<\?\)/);
    expect(read({ tool: 'x' })).toMatch(
      /USING INDEX metrics_hour_stats_by_tool \(project_id=\? AND tool_name=\? AND hour_ms>\? AND hour_ms<\?\)/,
    );
    db.close();
  });

  it('leaves an empty file as a new one', () => {
    const [upgraded, fresh] = upgradedAndFresh('narrow-time-index');
    const schema = (db: Database.Database) =>
      db.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all();
    expect(schema(upgraded)).toEqual(schema(fresh));
  });
});
