import type { IncomingMessage } from 'node:http';

/**
 * Reads a request body up to `max` bytes. Past that it stops buffering (the socket is drained
 * so the 413 can still be written) and resolves `'too-large'`.
 */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      req.resume();
      req.once('end', () => resolve('too-large'));
      req.once('error', () => resolve('too-large'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > max) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}
