/**
 * Reading a capture for `import`: lines of at most a given size, and each payload's JSON text
 * ready to send. Two things one hostile line must not do to the rest of the file:
 *
 * - **Size.** `readline` buffers a line whole, however long; a line over {@link MAX_LINE_BYTES}
 *   could never fit in one ingest request anyway, so its bytes are counted and dropped as they
 *   stream past, and the line is refused by number.
 * - **Depth.** `JSON.stringify` recurses: a payload nested 100,000 deep overflows the stack
 *   (`JSON.parse` does not). A line holding one payload is sent as the very text it was read
 *   as, so it is never re-encoded and ingest judges it as it would from an SDK; only the items
 *   of a `{"batch":[…]}` line are re-encoded one by one, and one that cannot be is refused alone.
 */
import type { Readable } from 'node:stream';
import { MAX_BODY_BYTES } from '../../ingest/index.js';
import { CONTENT_LINE_TYPE } from '../../store/export-content.js';
import type { Item, Reject } from './import-replay.js';

/** The longest line read: what fits in one ingest request beside the `{"batch":[…]}` envelope. */
export const MAX_LINE_BYTES = MAX_BODY_BYTES - 64;

/** A content line of an export (`"type":"proxy_content"`): one post to the content route. */
export interface ContentLine {
  line: number;
  post: Record<string, unknown>;
}

/** One line of the input, or the note that it was too long to keep. */
export type Line = { line: number; text: string } | { line: number; tooLongBytes: number };

/** Splits `input` into lines (LF or CRLF), keeping none longer than `maxBytes`. */
export async function* readLines(
  input: Readable | NodeJS.ReadableStream,
  maxBytes = MAX_LINE_BYTES,
): AsyncGenerator<Line> {
  let line = 0;
  let parts: Buffer[] = [];
  let bytes = 0;
  const end = (): Line => {
    line++;
    const result: Line =
      bytes > maxBytes
        ? { line, tooLongBytes: bytes }
        : { line, text: Buffer.concat(parts).toString('utf8') };
    parts = [];
    bytes = 0;
    return result;
  };
  for await (const chunk of input) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
      keep(buf.subarray(start, nl));
      yield end();
      start = nl + 1;
    }
    keep(buf.subarray(start));
  }
  if (bytes > 0 || parts.length > 0) yield end();

  /** Holds a piece of the current line while it is within bounds; counts it either way. */
  function keep(piece: Buffer): void {
    bytes += piece.length;
    if (bytes <= maxBytes) parts.push(piece);
    else parts = [];
  }
}

/** Whole-MiB (or byte) wording for a size. */
const sizeOf = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;

/**
 * The payloads of one line, each with its JSON text — or the reason the line (or one item of a
 * `{"batch":[…]}` line) cannot be replayed. `skipped` marks what import itself refused (as
 * opposed to what ingest rejected), for the summary.
 */
export function* itemsOfLine(
  entry: Line,
): Generator<Item | ContentLine | (Reject & { skipped?: true })> {
  const { line } = entry;
  if ('tooLongBytes' in entry) {
    yield {
      line,
      reason: `line of ${sizeOf(entry.tooLongBytes)} is over the ${sizeOf(MAX_LINE_BYTES)} one ingest request may hold`,
      skipped: true,
    };
    return;
  }
  const trimmed = entry.text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') return;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    yield { line, reason: `not valid JSON: ${(error as Error).message}` };
    return;
  }
  if (
    value !== null &&
    typeof value === 'object' &&
    (value as { type?: unknown }).type === CONTENT_LINE_TYPE
  ) {
    const { type: _type, ...post } = value as Record<string, unknown>;
    yield { line, post };
    return;
  }
  const batch = (value as { batch?: unknown } | null)?.batch;
  if (!(value && typeof value === 'object' && !('type' in value) && Array.isArray(batch))) {
    yield { line, json: trimmed };
    return;
  }
  for (const [index, item] of (batch as unknown[]).entries()) {
    let json: string | undefined;
    try {
      json = JSON.stringify(item);
    } catch {
      // The only way stringify fails on what JSON.parse built: recursion past the stack.
      yield {
        line,
        reason: `batch item ${index} is nested too deeply to re-encode`,
        skipped: true,
      };
      continue;
    }
    // `undefined` has no JSON text; `null` stands in, as ingest would read the array.
    yield { line, json: json ?? 'null' };
  }
}
