import { createHash } from 'node:crypto';

/** How a key is remembered: never the key, only what the hosted API keeps. */
export interface KeyFingerprint {
  sha256: string;
  prefix: string;
}

/**
 * The last few keys' fingerprints. An SDK sends the same key with every flush, and hashing it
 * each time was a measurable share of a flush's cost. Process memory only: keys are never
 * written anywhere (the store keeps the fingerprint).
 */
const recent = new Map<string, KeyFingerprint>();
const RECENT_KEYS = 32;

/** SHA-256 (hex) and first 12 characters of an ingest key. */
export function fingerprintKey(key: string): KeyFingerprint {
  let fingerprint = recent.get(key);
  if (fingerprint) return fingerprint;
  fingerprint = Object.freeze({
    sha256: createHash('sha256').update(key, 'utf8').digest('hex'),
    prefix: key.slice(0, 12),
  });
  if (recent.size >= RECENT_KEYS) recent.clear();
  recent.set(key, fingerprint);
  return fingerprint;
}

/**
 * Extracts the bearer key from an `Authorization` header; `null` when missing, not Bearer, or
 * empty (an empty key is how SDKs switch themselves off, so it never counts as a key).
 */
export function bearerKey(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer[ \t]+(.*)$/i.exec(header);
  const key = m?.[1]?.trim();
  return key ? key : null;
}
