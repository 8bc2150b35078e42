/**
 * The relay's copies of the traffic, on their way to the telemetry thread: a single-producer,
 * single-consumer ring in one SharedArrayBuffer. The relay copies each chunk in with its
 * direction and the time it saw it — a memcpy and a few atomic stores, no allocation, no message
 * — and the telemetry thread drains the ring whenever it gets to run. A full ring is the
 * thread's problem, never the relay's: the chunk is not copied, and the next copy that fits
 * says which directions lost bytes before it, and whether they ended at a line's end.
 *
 * Layout: a control block of Int32 slots, then the data. A record is a 16-byte header (Int32
 * length, Int32 flags, Float64 time) and the bytes, padded to 8; a length of -1 says "continue
 * at the start". Positions are byte offsets into the data; the writer never lets its position
 * reach the reader's from behind, so equal positions mean empty.
 */

/** Which way the bytes went. */
export type Direction = 'client' | 'server';

/**
 * Bytes of one direction relayed without being copied: none, whole lines (the last lost chunk
 * ended with a newline), or up to the middle of a line.
 */
export type Lost = 'none' | 'lines' | 'mid-line';

/** What was lost, per direction, between the previous record and this one. */
export interface LostBefore {
  client: Lost;
  server: Lost;
}

/** Nothing lost: what almost every record carries. */
export const NOTHING_LOST: Readonly<LostBefore> = Object.freeze({ client: 'none', server: 'none' });

/** One record, as the reader hands it out; `bytes` is only valid during the callback. */
export interface RingRecord {
  direction: Direction;
  /** Bytes relayed without being copied between the previous record and this one. */
  lost: Readonly<LostBefore>;
  /** When the relay saw them (epoch milliseconds, sub-millisecond precision). */
  at: number;
  bytes: Buffer;
}

const WRITE = 0;
const READ = 1;
/** 1 while the reader is parked in {@link RingReader.wait}: the writer must wake it. */
const SLEEPING = 2;
const CONTROL_BYTES = 64;
const HEADER = 16;
const WRAP = -1;
const FROM_SERVER = 1;
/** Flag bits for what was lost, per direction: any, and mid-line. */
const LOST = { client: [2, 4], server: [8, 16] } as const;

function lostFlags(lost: Readonly<LostBefore>): number {
  let flags = 0;
  for (const d of ['client', 'server'] as const) {
    if (lost[d] !== 'none') flags |= LOST[d][0];
    if (lost[d] === 'mid-line') flags |= LOST[d][1];
  }
  return flags;
}

function lostOf(flags: number): Readonly<LostBefore> {
  if (flags < 2) return NOTHING_LOST;
  const one = (d: Direction): Lost =>
    flags & LOST[d][0] ? (flags & LOST[d][1] ? 'mid-line' : 'lines') : 'none';
  return { client: one('client'), server: one('server') };
}

const align8 = (n: number): number => (n + 7) & ~7;

/** `Atomics.waitAsync` (in Node since 16; ES2024, newer than the project's TypeScript lib). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync;

/** A new ring's memory: `capacity` bytes of records (rounded up to a multiple of 8). */
export function createRing(capacity: number): SharedArrayBuffer {
  return new SharedArrayBuffer(CONTROL_BYTES + align8(capacity));
}

class RingView {
  protected readonly control: Int32Array;
  protected readonly data: Buffer;
  /** Bytes the ring holds in all. */
  readonly capacity: number;

  constructor(memory: SharedArrayBuffer) {
    this.control = new Int32Array(memory, 0, CONTROL_BYTES / 4);
    this.capacity = memory.byteLength - CONTROL_BYTES;
    this.data = Buffer.from(memory, CONTROL_BYTES, this.capacity);
  }

  /** Where the writer is: it moves whenever a record is written (wrapping at `capacity`). */
  get written(): number {
    return Atomics.load(this.control, WRITE);
  }

  /** Bytes written and not yet read. */
  get used(): number {
    const w = Atomics.load(this.control, WRITE);
    const r = Atomics.load(this.control, READ);
    return (w - r + this.capacity) % this.capacity;
  }
}

/** The relay's end. */
export class RingWriter extends RingView {
  /**
   * Copies `chunk` in, with what was `lost` just before it. Returns false, copying nothing, when
   * the ring has no room for it (the reader is that far behind): the caller then says so on its
   * next write.
   */
  write(
    direction: Direction,
    chunk: Uint8Array,
    at: number,
    lost: Readonly<LostBefore> = NOTHING_LOST,
  ): boolean {
    const need = HEADER + align8(chunk.length);
    const w = Atomics.load(this.control, WRITE);
    const r = Atomics.load(this.control, READ);
    // Kept free so that a full ring never looks empty.
    const free = (r - w - 8 + 2 * this.capacity) % this.capacity;
    const tail = this.capacity - w;
    let at0 = w;
    if (need > tail) {
      // Does not fit before the end: a wrap marker there, the record at the start.
      if (tail + need > free) return false;
      this.data.writeInt32LE(WRAP, w);
      at0 = 0;
    } else if (need > free) {
      return false;
    }
    this.data.writeInt32LE(chunk.length, at0);
    this.data.writeInt32LE((direction === 'server' ? FROM_SERVER : 0) | lostFlags(lost), at0 + 4);
    this.data.writeDoubleLE(at, at0 + 8);
    this.data.set(chunk, at0 + HEADER);
    // The store publishes the record (Atomics are sequentially consistent).
    Atomics.store(this.control, WRITE, (at0 + need) % this.capacity);
    if (Atomics.load(this.control, SLEEPING) === 1) {
      Atomics.store(this.control, SLEEPING, 0);
      Atomics.notify(this.control, WRITE);
    }
    return true;
  }
}

/** The telemetry thread's end. */
export class RingReader extends RingView {
  /** Hands every record written so far to `onRecord`, freeing each after; returns the count. */
  drain(onRecord: (record: RingRecord) => void): number {
    let r = Atomics.load(this.control, READ);
    const w = Atomics.load(this.control, WRITE);
    let count = 0;
    while (r !== w) {
      const length = this.data.readInt32LE(r);
      if (length === WRAP) {
        r = 0;
        Atomics.store(this.control, READ, r);
        continue;
      }
      const flags = this.data.readInt32LE(r + 4);
      const record: RingRecord = {
        direction: flags & FROM_SERVER ? 'server' : 'client',
        lost: lostOf(flags),
        at: this.data.readDoubleLE(r + 8),
        bytes: this.data.subarray(r + HEADER, r + HEADER + length),
      };
      try {
        onRecord(record);
      } finally {
        r = (r + HEADER + align8(length)) % this.capacity;
        Atomics.store(this.control, READ, r);
        count++;
      }
    }
    return count;
  }

  /** Resolves once something has been written (at once if something already is). */
  wait(): Promise<void> {
    const w = Atomics.load(this.control, WRITE);
    Atomics.store(this.control, SLEEPING, 1);
    if (w !== Atomics.load(this.control, READ)) {
      Atomics.store(this.control, SLEEPING, 0);
      return Promise.resolve();
    }
    const waited = waitAsync(this.control, WRITE, w);
    return waited.async ? waited.value.then(() => {}) : Promise.resolve();
  }
}
