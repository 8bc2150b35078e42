/**
 * The Node entry to the canonical engine: everything `./index.js` has, with `argsHash` and
 * `hashText` bound to node:crypto's SHA-256 (native, several times faster than the pure-TS one).
 *
 * Import this from Node code (CLI, server, ingest); the renderer imports `./index.js`, which has
 * no Node imports at all. This is the only file under src/canonical that touches Node.
 */
import { createHash } from 'node:crypto';
import { argsHash as argsHashWith, hashText as hashTextWith } from './hash.js';

export * from './index.js';

/** Lowercase hex SHA-256 of `text`'s UTF-8 bytes, by node:crypto. */
export function nodeSha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** {@link argsHashWith | argsHash} with node:crypto's SHA-256. */
export function argsHash(args: unknown): string {
  return argsHashWith(args, nodeSha256Hex);
}

/** {@link hashTextWith | hashText} with node:crypto's SHA-256. */
export function hashText(text: string): string {
  return hashTextWith(text, nodeSha256Hex);
}
