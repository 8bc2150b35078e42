/**
 * docs/schema.md, rendered from the migrations themselves: a fresh in-memory database is
 * migrated by the store's own `migrate` one version at a time, and the tables, columns,
 * indexes, foreign keys and triggers are read back from SQLite (`sqlite_schema` and the table
 * pragmas), so the document cannot drift from what a file really holds. The words come from
 * scripts/schema-notes.ts. scripts/write-schema-doc.ts writes the file;
 * test/docs/schema-doc.test.ts fails when it is stale.
 */
import Database from 'better-sqlite3';
import { migrate } from '../src/store/migrate.js';
import { MIGRATIONS } from '../src/store/migrations/index.js';
import { GROUPS, MIGRATION_NOTES, TABLE_NOTES } from './schema-notes.js';

interface TableRow {
  name: string;
  wr: number;
  strict: number;
}
interface ColumnRow {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}
interface IndexRow {
  name: string;
  unique: number;
  origin: string;
  partial: number;
}
interface IndexColumnRow {
  name: string | null;
  cid: number;
  desc: number;
  key: number;
}
interface ForeignKeyRow {
  id: number;
  table: string;
  from: string;
  to: string | null;
  on_delete: string;
}
interface SchemaRow {
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** Where each table, column, index and trigger of the final schema last took its shape. */
interface Origins {
  tables: Map<string, number>;
  columns: Map<string, number>;
  objects: Map<string, number>;
}

/** A markdown table whose columns are padded to one width, so the source reads as a table too. */
function mdTable(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length), 3));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const code = (s: string): string => `\`${s}\``;

/** Migrates a fresh database one version at a time, noting when each object took its shape. */
function migrateNoting(db: Database.Database): Origins {
  const origins: Origins = { tables: new Map(), columns: new Map(), objects: new Map() };
  const objectSql = new Map<string, string | null>();
  for (let i = 0; i < MIGRATIONS.length; i++) {
    const version = migrate(db, MIGRATIONS.slice(0, i + 1));
    for (const t of tablesOf(db)) {
      if (!origins.tables.has(t.name)) origins.tables.set(t.name, version);
      for (const c of columnsOf(db, t.name)) {
        const key = `${t.name}.${c.name}`;
        if (!origins.columns.has(key)) origins.columns.set(key, version);
      }
    }
    // An index or trigger dropped and made again under its name dates from its last definition.
    for (const o of db
      .prepare<[], SchemaRow>("SELECT name, tbl_name, sql FROM sqlite_schema WHERE type <> 'table'")
      .all()) {
      if (objectSql.get(o.name) !== o.sql) origins.objects.set(o.name, version);
      objectSql.set(o.name, o.sql);
    }
  }
  return origins;
}

function tablesOf(db: Database.Database): TableRow[] {
  return db
    .prepare<[], TableRow>(
      "SELECT name, wr, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table' " +
        "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .all();
}

function columnsOf(db: Database.Database, table: string): ColumnRow[] {
  return db
    .prepare<[string], ColumnRow>('SELECT * FROM pragma_table_xinfo(?) ORDER BY cid')
    .all(table)
    .filter((c) => c.hidden === 0);
}

/** The section of one table. */
function tableSection(db: Database.Database, t: TableRow, origins: Origins): string {
  const note = TABLE_NOTES[t.name]!;
  const created = origins.tables.get(t.name)!;
  const kind = [t.strict ? 'STRICT' : 'not STRICT', t.wr ? 'WITHOUT ROWID' : 'rowid table'];
  const out = [
    `### ${code(t.name)}`,
    '',
    `Created by migration ${created} (${MIGRATIONS[created - 1]!.name}); ${kind.join(', ')}.`,
    '',
    note.text,
    '',
  ];
  const columns = columnsOf(db, t.name);
  // A lone INTEGER PRIMARY KEY of a rowid table is the rowid itself: never NULL, whatever the
  // pragma says of its declaration.
  const isRowid = (c: ColumnRow): boolean =>
    !t.wr && c.pk === 1 && c.type === 'INTEGER' && columns.filter((o) => o.pk > 0).length === 1;
  out.push(
    mdTable(
      ['Column', 'Type', 'Not null', 'Default', 'Primary key', 'Added'],
      columns.map((c) => [
        code(c.name),
        c.type,
        // A WITHOUT ROWID table's key can never be NULL, declared so or not.
        c.notnull || (c.pk && t.wr) || isRowid(c) ? 'yes' : '',
        c.dflt_value === null ? '' : code(c.dflt_value),
        isRowid(c) ? 'rowid' : c.pk ? String(c.pk) : '',
        String(origins.columns.get(`${t.name}.${c.name}`)),
      ]),
    ),
    '',
  );
  const sqlOf = db.prepare<[string], string | null>('SELECT sql FROM sqlite_schema WHERE name = ?');
  const indexes = db
    .prepare<[string], IndexRow>('SELECT * FROM pragma_index_list(?) ORDER BY name')
    .all(t.name)
    .filter((i) => i.origin !== 'pk');
  if (indexes.length > 0) {
    const rows = indexes.map((i) => {
      const cols = db
        .prepare<[string], IndexColumnRow>('SELECT * FROM pragma_index_xinfo(?) ORDER BY seqno')
        .all(i.name)
        .filter((c) => c.key === 1)
        .map((c) => (c.name ?? '(expression)') + (c.desc ? ' DESC' : ''));
      const where = i.partial ? (sqlOf.pluck().get(i.name) ?? '').match(/\sWHERE\s+(.+)$/is) : null;
      return [
        code(i.name),
        cols.join(', '),
        i.unique ? (i.origin === 'u' ? 'yes (UNIQUE column)' : 'yes') : '',
        where ? code(where[1]!.replace(/\s+/g, ' ').trim()) : '',
        String(origins.objects.get(i.name)),
      ];
    });
    out.push('Indexes:', '', mdTable(['Index', 'Columns', 'Unique', 'Where', 'Added'], rows), '');
  }
  const keys = db
    .prepare<[string], ForeignKeyRow>('SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq')
    .all(t.name);
  if (keys.length > 0) {
    out.push('Foreign keys:', '');
    for (const k of keys)
      out.push(
        `- ${code(k.from)} → ${code(`${k.table}(${k.to ?? ''})`)}, on delete ${k.on_delete}`,
      );
    out.push('');
  }
  const triggers = db
    .prepare<[string], SchemaRow>(
      "SELECT name, tbl_name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ? ORDER BY name",
    )
    .all(t.name);
  for (const tr of triggers) {
    out.push(
      `Trigger ${code(tr.name)} (migration ${origins.objects.get(tr.name)}):`,
      '',
      '```sql',
      tr.sql!.trim(),
      '```',
      '',
    );
  }
  return out.join('\n');
}

/** docs/schema.md as the current migrations make it. */
export function schemaMarkdown(): string {
  const db = new Database(':memory:');
  try {
    const origins = migrateNoting(db);
    const tables = tablesOf(db);
    const missing = tables.filter((t) => !TABLE_NOTES[t.name]).map((t) => t.name);
    const extra = Object.keys(TABLE_NOTES).filter((n) => !tables.some((t) => t.name === n));
    if (missing.length || extra.length)
      throw new Error(
        `scripts/schema-notes.ts: describe ${missing.join(', ') || '—'}; drop ${extra.join(', ') || '—'}`,
      );
    const version = MIGRATIONS.at(-1)!.version;
    const out = [
      '# Database schema',
      '',
      '<!-- Generated by scripts/write-schema-doc.ts from src/store/migrations: do not edit. -->',
      '',
      `What a database file holds at schema version ${version} (\`PRAGMA user_version\`). Generated`,
      'from the migrations: after adding one, run `node --import tsx scripts/write-schema-doc.ts`',
      '(test/docs/schema-doc.test.ts fails until you do). The metrics terms (outcome class, link,',
      'run, chain, fine bucket) are defined in [metrics.md](metrics.md); "Added" is the migration',
      'that gave a column, index or trigger its current form; "Primary key" is the column’s place',
      'in the key, `rowid` an INTEGER PRIMARY KEY that is the table’s rowid.',
      '',
      '## Migrations',
      '',
      mdTable(
        ['#', 'Name', 'What it does'],
        MIGRATIONS.map((m) => {
          const note = MIGRATION_NOTES[m.version];
          if (!note) throw new Error(`scripts/schema-notes.ts: describe migration ${m.version}`);
          return [String(m.version), code(m.name), note];
        }),
      ),
      '',
    ];
    for (const group of GROUPS) {
      // In the order of the notes, which follow the migrations (a table before those naming it).
      const order = Object.keys(TABLE_NOTES);
      const inGroup = tables
        .filter((t) => TABLE_NOTES[t.name]!.group === group)
        .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
      if (inGroup.length === 0) continue;
      out.push(`## ${group}`, '', inGroup.map((t) => code(t.name)).join(', ') + '.', '');
      for (const t of inGroup) out.push(tableSection(db, t, origins));
    }
    return out.join('\n').trimEnd() + '\n';
  } finally {
    db.close();
  }
}
