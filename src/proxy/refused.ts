/**
 * A relayed message the proxy could not keep, as it tells the server so (`refused` in
 * src/shared/proxy-content.ts): its facts, its size and why — never its body, which could not
 * be redacted. The server records it on the ingest log instead of storing it.
 */
import { jsonTextDepth } from '../shared/deep-json.js';
import type { ProxyMessage } from '../shared/proxy-content.js';
import { storedFacts, type MessageFacts } from './content.js';

/** Past this many levels a failure to redact is put down to depth, and said so. */
const DEEP = 1_000;

/** Why `text` could not be kept, from the error its stored form failed with. */
export function refusalReason(text: string, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  const depth = jsonTextDepth(text);
  const reason =
    depth > DEEP
      ? `nested ${depth.toLocaleString('en-US')} levels deep: too deep to redact, so the proxy did not keep it (${why})`
      : `the proxy could not redact it, so it did not keep it (${why})`;
  return reason.slice(0, 1000);
}

/** The message with no body, marked refused with the reason. */
export function refusedMessage(
  seq: number,
  facts: MessageFacts,
  text: string,
  error: unknown,
): ProxyMessage {
  return {
    ...storedFacts(seq, facts, text),
    body: '',
    truncated: false,
    refused: refusalReason(text, error),
  };
}
