/**
 * A slow download (an export read by a client slower than the server writes) waits for the
 * socket to drain many times. Each wait used to leave a `close` listener on the response —
 * eleven waits and Node printed MaxListenersExceededWarning. A real node:http server on port 0
 * and a real client that reads slowly; the body's own generator counts the listeners as the
 * writer goes, so the test sees exactly what the writer leaves behind.
 */
import { createServer, get, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { RawResponse } from '../../src/api/types.js';
import { sendRaw } from '../../src/server/respond.js';

const CHUNK = 'x'.repeat(64 * 1024);
const CHUNKS = 400; // 25 MiB: far past any socket buffer, so the writer must wait often.

it('leaves no listener behind per drain wait on a slow download', { timeout: 60_000 }, async () => {
  const counts: number[] = [];
  let waits = 0;
  let response: ServerResponse | undefined;
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.name);
  process.on('warning', onWarning);
  function* body(): Generator<string> {
    for (let i = 0; i < CHUNKS; i++) {
      const res = response!;
      counts.push(res.listenerCount('close') + res.listenerCount('drain'));
      yield CHUNK;
    }
  }
  const server = createServer((_req, res) => {
    response = res;
    // Counts the writes that filled the buffer — each one a wait for `drain` in sendRaw.
    const write = res.write.bind(res) as (chunk: string) => boolean;
    res.write = ((chunk: string) => {
      const ok = write(chunk);
      if (!ok) waits++;
      return ok;
    }) as typeof res.write;
    void sendRaw(res, new RawResponse('text/plain', body()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const received = await new Promise<number>((resolve, reject) => {
      get(`http://127.0.0.1:${port}/`, (res) => {
        let bytes = 0;
        res.pause();
        // Read a little at a time, so the server keeps finding the socket full.
        const tick = setInterval(() => {
          for (let chunk; (chunk = res.read(256 * 1024)) !== null;) bytes += chunk.length;
        }, 2);
        res.on('end', () => {
          clearInterval(tick);
          resolve(bytes);
        });
        res.on('readable', () => {});
        res.on('error', reject);
      }).on('error', reject);
    });
    expect(received).toBe(CHUNK.length * CHUNKS);
  } finally {
    process.off('warning', onWarning);
    await new Promise((resolve) => server.close(resolve));
  }
  expect(waits).toBeGreaterThan(20);
  // The server's own listeners on a response are a handful; what matters is that they do not
  // grow with the number of waits.
  expect(Math.max(...counts)).toBe(counts[0]);
  expect(warnings).not.toContain('MaxListenersExceededWarning');
});
