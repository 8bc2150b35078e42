/**
 * Reading `text/event-stream` on the side of the HTTP relay: the relay forwards each chunk as
 * it arrives; this collects `data:` lines and hands out each event's data when a blank line
 * ends the event (the WHATWG rules, without the parts a JSON-RPC observer does not need).
 */
export class SseReader {
  private buffer = '';
  private data: string[] = [];
  private readonly decoder = new TextDecoder();

  constructor(private readonly onData: (data: string) => void) {}

  /** Adds one chunk of the stream. */
  push(chunk: Buffer): void {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) !== -1) {
      // A lone `\r` at the very end may be the first half of `\r\n`: wait for the next chunk.
      if (this.buffer[nl] === '\r' && nl === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, nl);
      const width = this.buffer.startsWith('\r\n', nl) ? 2 : 1;
      this.buffer = this.buffer.slice(nl + width);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) {
        const data = this.data.join('\n');
        this.data = [];
        this.onData(data);
      }
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.data.push(value);
  }
}
