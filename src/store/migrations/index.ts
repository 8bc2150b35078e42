/**
 * The numbered migrations, in order. `PRAGMA user_version` records how many have run, so a
 * database from an older version is moved forward, never wiped. Append only: never edit a
 * migration that has shipped — add the next number instead (each has its own test).
 */
import type Database from 'better-sqlite3';
import * as m001 from './001-initial.js';
import * as m002 from './002-metrics.js';
import * as m003 from './003-derived-watermark.js';
import * as m004 from './004-spool.js';
import * as m005 from './005-agreements.js';
import * as m006 from './006-proxy-content.js';
import * as m007 from './007-misdirected-and-omitted.js';
import * as m008 from './008-hourly-rollups.js';
import * as m009 from './009-exact-durations.js';
import * as m010 from './010-plain-checks.js';
import * as m011 from './011-one-session-index.js';
import * as m012 from './012-retention-totals.js';
import * as m013 from './013-narrow-time-index.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** What SQL alone cannot say, run after `sql` in the same transaction. */
  run?: (db: Database.Database) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: m001.sql },
  { version: 2, name: 'metrics', sql: m002.sql },
  { version: 3, name: 'derived-watermark', sql: m003.sql },
  { version: 4, name: 'spool', sql: m004.sql },
  { version: 5, name: 'agreements', sql: m005.sql },
  { version: 6, name: 'proxy-content', sql: m006.sql },
  { version: 7, name: 'misdirected-and-omitted', sql: m007.sql },
  { version: 8, name: 'hourly-rollups', sql: m008.sql },
  { version: 9, name: 'exact-durations', sql: m009.sql },
  { version: 10, name: 'plain-checks', sql: m010.sql, run: m010.run },
  { version: 11, name: 'one-session-index', sql: m011.sql },
  { version: 12, name: 'retention-totals', sql: m012.sql },
  { version: 13, name: 'narrow-time-index', sql: m013.sql },
];
