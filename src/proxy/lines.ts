/**
 * Splitting a byte stream into newline-delimited lines, on the side of the relay. The relay has
 * already forwarded every chunk; this only collects copies until a `\n` completes a line. Only
 * the new chunk is searched for the newline, so a 10 MB line costs one concatenation, not one
 * rescan per chunk.
 */
const NEWLINE = 0x0a;

/** Collects chunks and hands out complete lines (without the `\n`; a trailing `\r` is kept). */
export class LineSplitter {
  private parts: Buffer[] = [];
  private partsLength = 0;
  private resyncing = false;

  constructor(private readonly onLine: (line: Buffer) => void) {}

  /**
   * Bytes went missing before the next chunk: the line being collected is incomplete and is
   * dropped. If the missing bytes ended mid-line (`midLine`), so does the start of the next
   * chunk, up to and including its first `\n`.
   */
  resync(midLine: boolean): void {
    this.parts = [];
    this.partsLength = 0;
    this.resyncing = midLine;
  }

  /** Adds one chunk; calls `onLine` for every line it completes. */
  push(chunk: Buffer): void {
    let start = 0;
    if (this.resyncing) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl === -1) return;
      this.resyncing = false;
      start = nl + 1;
    }
    let nl = chunk.indexOf(NEWLINE, start);
    while (nl !== -1) {
      const piece = chunk.subarray(start, nl);
      if (this.partsLength > 0) {
        this.parts.push(piece);
        const line = Buffer.concat(this.parts, this.partsLength + piece.length);
        this.parts = [];
        this.partsLength = 0;
        this.onLine(line);
      } else {
        this.onLine(piece);
      }
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      // Copied: the relay may reuse or release the chunk's memory once written.
      const rest = Buffer.from(chunk.subarray(start));
      this.parts.push(rest);
      this.partsLength += rest.length;
    }
  }

  /** Bytes of an unfinished line held back (a stream that ended mid-line leaves some). */
  get pendingBytes(): number {
    return this.partsLength;
  }
}
