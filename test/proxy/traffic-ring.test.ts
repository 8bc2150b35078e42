/**
 * The shared ring between the relay and the telemetry thread: records come out as they went in,
 * in order, across wrap-arounds; a full ring refuses without copying; a parked reader wakes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createRing,
  RingReader,
  RingWriter,
  type Direction,
  type LostBefore,
  type RingRecord,
} from '../../src/proxy/traffic-ring.js';

interface Copied {
  direction: Direction;
  lost: LostBefore;
  at: number;
  text: string;
}

function ring(capacity: number) {
  const memory = createRing(capacity);
  const writer = new RingWriter(memory);
  const reader = new RingReader(memory);
  const drain = (): Copied[] => {
    const out: Copied[] = [];
    reader.drain((r: RingRecord) =>
      out.push({ direction: r.direction, lost: r.lost, at: r.at, text: r.bytes.toString('utf8') }),
    );
    return out;
  };
  return { writer, reader, drain };
}

describe('the traffic ring', () => {
  it('hands out each record with its direction, time, losses before it and bytes, in order', () => {
    const { writer, drain } = ring(1024);
    const none = { client: 'none', server: 'none' };
    const lost = { client: 'lines', server: 'mid-line' } as const;
    expect(writer.write('client', Buffer.from('{"id":1}\n'), 1000.25)).toBe(true);
    expect(writer.write('server', Buffer.from('{"id":1,"result":{}}\n'), 1000.5, lost)).toBe(true);
    expect(writer.write('client', Buffer.alloc(0), 1001)).toBe(true);
    expect(drain()).toEqual([
      { direction: 'client', lost: none, at: 1000.25, text: '{"id":1}\n' },
      { direction: 'server', lost, at: 1000.5, text: '{"id":1,"result":{}}\n' },
      { direction: 'client', lost: none, at: 1001, text: '' },
    ]);
    expect(drain()).toEqual([]);
  });

  it('keeps every byte and the order across wrap-arounds, whatever the sizes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 90 }), fc.integer({ min: 1, max: 4 })), {
          maxLength: 200,
        }),
        (writes) => {
          const { writer, drain } = ring(256);
          const expected: string[] = [];
          const got: string[] = [];
          let at = 0;
          for (const [text, drainEvery] of writes) {
            const ok = writer.write(at % 2 ? 'server' : 'client', Buffer.from(text), at++);
            if (ok) expected.push(text);
            if (!ok || at % drainEvery === 0) got.push(...drain().map((c) => c.text));
          }
          got.push(...drain().map((c) => c.text));
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a record it has no room for, copying nothing, and takes it once drained', () => {
    const { writer, reader, drain } = ring(128);
    const chunk = Buffer.alloc(40, 'a');
    expect(writer.write('client', chunk, 1)).toBe(true);
    expect(writer.write('client', chunk, 2)).toBe(true);
    const before = reader.used;
    expect(writer.write('client', chunk, 3)).toBe(false);
    expect(reader.used).toBe(before);
    expect(drain().map((c) => c.at)).toEqual([1, 2]);
    expect(writer.write('client', chunk, 4)).toBe(true);
    expect(drain().map((c) => c.at)).toEqual([4]);
  });

  it('refuses a chunk larger than the whole ring, every time', () => {
    const { writer, drain } = ring(64);
    expect(writer.write('server', Buffer.alloc(100), 1)).toBe(false);
    expect(drain()).toEqual([]);
  });

  it('wakes a parked reader when the writer writes, and does not park with records waiting', async () => {
    const { writer, reader, drain } = ring(1024);
    let woke = false;
    const parked = reader.wait().then(() => (woke = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(woke).toBe(false);
    writer.write('client', Buffer.from('x'), 1);
    await parked;
    expect(drain()).toHaveLength(1);

    writer.write('client', Buffer.from('y'), 2);
    await reader.wait(); // resolves at once: a record is already there
    expect(drain().map((c) => c.text)).toEqual(['y']);
  });
});
