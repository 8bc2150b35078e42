import { createReadStream, existsSync } from 'node:fs';
import type { Store } from '../../store/index.js';
import { parseFlags } from '../flags.js';
import { UsageError, type CliIO, type Command } from '../io.js';
import { DatabaseOpenError, openDbForCli } from '../../host/open-db.js';
import { defaultDbPath } from '../../host/paths.js';
import { clientToken } from '../../host/token.js';
import { normalizeUrl } from './demo-probe.js';
import { MAX_LINE_BYTES, itemsOfLine, readLines, type ContentLine } from './import-lines.js';
import {
  directSender,
  httpSender,
  type ChunkSender,
  type Item,
  type Reject,
} from './import-replay.js';
import { directContentSender, httpContentSender, type ContentSender } from './import-content.js';
import { prog } from '../invocation.js';

const USAGE = `usage: ${prog()} import FILE.jsonl [--key KEY] [--content] [--db PATH | --url URL [--token VALUE]]

Replays a capture — one payload per line, as '${prog()} export' writes — through the
same validation as the ingest endpoint, in requests of at most 500 payloads. Every refused
line is reported with its number and production's reason; the rest is stored. A line holding
a whole request body ({"batch":[…]}) is replayed item by item. FILE '-' reads standard input.

  --key KEY   the ingest key to replay under; one key is one project (default mp_live_import)
  --content   also replay the proxy's content lines ("type":"proxy_content", written by
              'export --content') through the content route; without it they are skipped
  --db PATH   database to import into (default ~/.mcpulse-devtools/devtools.db, or
              $MCPULSE_DEVTOOLS_DB); refused while a dashboard is serving it — use --url then
  --url URL   send through the ingest endpoint of a running dashboard instead
  --token VALUE  that dashboard's owner token, for content and reading back rejections
              (default $MCPULSE_DEVTOOLS_TOKEN, else ~/.mcpulse-devtools/token)

Exits 0 when every line was accepted, 1 when any was rejected (the others are still stored).
Importing the same file twice stores it twice.
`;

const CHUNK = 500;
/** A chunk's body stays under this many bytes, so it always fits in one ingest request. */
const CHUNK_BYTES = MAX_LINE_BYTES;

/** A reject; `skipped` when import itself could not handle the line (size, depth). */
type SkippableReject = Reject & { skipped?: true };

/** Reads FILE line by line; yields batch items and content lines with their numbers, or a reject. */
async function* readItems(
  path: string,
  io: CliIO,
): AsyncGenerator<Item | SkippableReject | ContentLine> {
  const input = path === '-' ? io.stdin : createReadStream(path);
  for await (const entry of readLines(input)) yield* itemsOfLine(entry);
}

export const command: Command = {
  summary: 'replay a JSONL capture through ingest validation, reporting rejected lines',
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      {
        key: { type: 'string' },
        db: { type: 'string' },
        url: { type: 'string' },
        content: { type: 'boolean' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      true,
    );
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    if (positionals.length !== 1)
      throw new UsageError('expected exactly one FILE (or - for standard input)');
    const file = positionals[0]!;
    if (file !== '-' && !existsSync(file)) throw new UsageError(`no file ${file}`);
    if (values.db !== undefined && values.url !== undefined)
      throw new UsageError('pass --db or --url, not both');
    const key = values.key ?? 'mp_live_import';
    if (key.trim() === '') throw new UsageError('--key: an empty key is refused by ingest');

    let store: Store | undefined;
    let send: ChunkSender;
    let sendContent: ContentSender;
    let target: string;
    if (values.url !== undefined) {
      target = normalizeUrl(values.url);
      const token = clientToken(values.token, io.env);
      send = httpSender(target, key, token);
      sendContent = httpContentSender(target, key, token);
    } else {
      target = values.db ?? defaultDbPath(io.env);
      try {
        store = openDbForCli(target, { instanceLock: true, tell: (line) => io.stderr.write(line) });
      } catch (error) {
        if (!(error instanceof DatabaseOpenError)) throw error;
        io.stderr.write(
          `mcpulse-devtools import: ${error.message}\n  (to import into a running dashboard, pass --url http://localhost:PORT)\n`,
        );
        return 1;
      }
      send = directSender(store, key);
      sendContent = directContentSender(store, key);
    }

    let accepted = 0;
    let rejected = 0;
    const content = { lines: 0, skipped: 0, messages: 0 };
    let stopped = false;
    const skipped: SkippableReject[] = [];
    const report = (r: SkippableReject): void => {
      rejected++;
      if (r.skipped) skipped.push(r);
      io.stdout.write(`line ${r.line}: ${r.reason}\n`);
    };
    // Lines refused before sending wait for their chunk, so every reject prints in line order.
    let unparsed: SkippableReject[] = [];
    const flush = async (items: Item[]): Promise<void> => {
      const early = unparsed;
      unparsed = [];
      if (items.length === 0 || stopped) {
        early.forEach(report);
        return;
      }
      const result = await send(items);
      accepted += result.accepted;
      if (result.refused) {
        const first = items[0]!.line;
        const last = items[items.length - 1]!.line;
        io.stdout.write(
          `lines ${first}–${last}: refused (${result.refused.status}): ${result.refused.error}\n`,
        );
        rejected += items.length;
        stopped = result.refused.fatal;
      }
      [...early, ...result.rejects].sort((a, b) => a.line - b.line).forEach(report);
    };
    try {
      let chunk: Item[] = [];
      let chunkBytes = 0;
      for await (const entry of readItems(file, io)) {
        if (stopped) break;
        if ('post' in entry) {
          if (!values.content) {
            content.skipped++;
            continue;
          }
          // Telemetry read so far goes first, so a call is stored before its content.
          await flush(chunk);
          chunk = [];
          chunkBytes = 0;
          const result = await sendContent(entry.post);
          content.lines++;
          content.messages += result.accepted;
          if (result.error) {
            rejected++;
            io.stdout.write(`line ${entry.line}: ${result.error}\n`);
          } else if (result.rejected > 0) {
            rejected++;
            io.stdout.write(
              `line ${entry.line}: ${result.rejected} messages refused (their reasons are on the ingest log)\n`,
            );
          }
          continue;
        }
        if (!('json' in entry)) {
          unparsed.push(entry);
          continue;
        }
        // Big payloads: send what is gathered before the body would outgrow one request.
        const bytes = Buffer.byteLength(entry.json) + 1;
        if (chunk.length > 0 && chunkBytes + bytes > CHUNK_BYTES) {
          await flush(chunk);
          chunk = [];
          chunkBytes = 0;
        }
        chunk.push(entry);
        chunkBytes += bytes;
        if (chunk.length === CHUNK) {
          await flush(chunk);
          chunk = [];
          chunkBytes = 0;
        }
      }
      await flush(chunk);
    } finally {
      store?.close();
    }
    if (content.lines > 0)
      io.stderr.write(
        `imported ${content.messages} messages of proxy content (${content.lines} lines)\n`,
      );
    if (content.skipped > 0)
      io.stderr.write(
        `skipped ${content.skipped} lines of proxy content: pass --content to import them\n`,
      );
    // Lines import itself could not handle are named in the summary too: they never reached
    // ingest, so no ingest log will show them.
    const named = skipped.map((r) => `; skipped line ${r.line} (${r.reason})`).join('');
    io.stderr.write(
      `imported ${accepted} payloads into ${target}${rejected ? `; ${rejected} rejected (listed above)` : ''}${named}${stopped ? '; stopped early' : ''}\n`,
    );
    return rejected > 0 || stopped ? 1 : 0;
  },
};
