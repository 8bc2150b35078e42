/**
 * A download coming from a read thread, as an async iterator of chunks: each `next()` after the
 * first asks the thread for one more chunk, so the export reads on only as fast as the client
 * takes it; `return()` (the client left) cancels it at its next chunk.
 */

/** What the pool tells a download, and what it needs from the pool. */
export interface DownloadLink {
  /** Ask the thread for the next chunk. */
  more(): void;
  /** Tell the thread to stop. */
  cancel(): void;
  /** Waiting for the thread (its budget runs) or not. */
  waiting(on: boolean): void;
}

/** The chunks of one download, fed by the pool as the thread's messages arrive. */
export class Download implements AsyncIterableIterator<string> {
  private readonly buffered: string[] = [];
  private finished = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private started = false;

  constructor(private readonly link: DownloadLink) {}

  /** A chunk arrived. */
  push(text: string): void {
    this.buffered.push(text);
    this.notify();
  }

  /** The thread finished the body. */
  end(): void {
    this.finished = true;
    this.notify();
  }

  /** The thread failed part-way (or was stopped): the consumer's next `next()` throws. */
  fail(message: string): void {
    this.failure ??= new Error(message);
    this.notify();
  }

  /** Ended one way or another. */
  get done(): boolean {
    return this.finished || this.failure !== null;
  }

  async next(): Promise<IteratorResult<string>> {
    if (this.started && !this.done && this.buffered.length === 0) this.link.more();
    this.started = true;
    while (this.buffered.length === 0 && !this.done) {
      this.link.waiting(true);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    this.link.waiting(false);
    const chunk = this.buffered.shift();
    if (chunk !== undefined) return { value: chunk, done: false };
    if (this.failure) throw this.failure;
    return { value: undefined, done: true };
  }

  async return(): Promise<IteratorResult<string>> {
    if (!this.done) this.link.cancel();
    this.finished = true;
    this.buffered.length = 0;
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<string> {
    return this;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
