/**
 * The Node entry to the canonical engine: everything `./index.js` has, with `argsHash` and
 * `hashText` bound to node:crypto's SHA-256 (native, several times faster than the pure-TS one).
 *
 * Import this from Node code (CLI, server, ingest); the renderer imports `./index.js`, which has
 * no Node imports at all. This is the only file under src/canonical that touches Node.
 */
import * as crypto from 'node:crypto';
import { argsHash as argsHashWith, hashText as hashTextWith } from './hash.js';

export * from './index.js';

/**
 * Lowercase hex SHA-256 of `text`'s UTF-8 bytes, by node:crypto: the one-shot `crypto.hash`
 * (Node 20.12+, about three times faster than a Hash object on a tool call's arguments), or
 * `createHash` where it is missing.
 */
export const nodeSha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

/** {@link argsHashWith | argsHash} with node:crypto's SHA-256. */
export function argsHash(args: unknown): string {
  return argsHashWith(args, nodeSha256Hex);
}

/** {@link hashTextWith | hashText} with node:crypto's SHA-256. */
export function hashText(text: string): string {
  return hashTextWith(text, nodeSha256Hex);
}
