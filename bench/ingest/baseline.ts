/**
 * The bare baseline for bench/ingest.ts: the least a Node server can do to store a batch —
 * node:http, read the body, JSON.parse, insert every payload with one prepared statement in
 * one transaction, answer 202. No validation, no auth, no ingest log, no secondary indexes,
 * no derived facts. Same SQLite settings as the store (WAL, synchronous = NORMAL).
 *
 *   node --import tsx bench/ingest/baseline.ts --db PATH   → prints "listening http://127.0.0.1:PORT"
 */
import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { db: { type: 'string' }, port: { type: 'string', default: '0' } },
});
const db = new Database(values.db ?? ':memory:');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE IF NOT EXISTS calls (
  id INTEGER PRIMARY KEY, session_id TEXT, client_name TEXT, tool_name TEXT, started_at TEXT,
  duration_ms INTEGER, outcome TEXT, response_bytes INTEGER, is_empty INTEGER, args_hash TEXT
)`);
const insert = db.prepare(
  `INSERT INTO calls (session_id, client_name, tool_name, started_at, duration_ms, outcome, response_bytes, is_empty, args_hash)
   VALUES (@session_id, @client_name, @tool_name, @started_at, @duration_ms, @outcome, @response_bytes, @is_empty, @args_hash)`,
);
type Payload = Record<string, unknown> & { is_empty?: boolean };
const insertAll = db.transaction((batch: Payload[]) => {
  for (const p of batch) insert.run({ ...p, is_empty: p.is_empty ? 1 : 0 });
});

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    try {
      const { batch } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { batch: Payload[] };
      insertAll(batch.filter((p) => p.type === 'call'));
      res.writeHead(202).end();
    } catch (error) {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: String(error) }));
    }
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(values.port), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `listening http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`,
  );
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
