/**
 * Turning one relayed JSON-RPC message into what the proxy keeps of it (src/shared/proxy-content.ts):
 * its body with secrets redacted (src/redact: key names, secretlint's preset, the supplementary
 * and `--redact` rules), then cut to MESSAGE_BODY_CAP with the original size — redacted before
 * the cut, so the cut never leaves part of a secret, and the cut never leaves half a marker.
 * A message nothing was redacted from keeps its exact relayed text, so what is stored equals
 * the bytes that went across. Redaction is async (secretlint), so this runs on the telemetry
 * thread's promise chain (observer.ts), never on the relay's.
 */
import { cutBody, Redactor } from '../redact/index.js';
import {
  MESSAGE_BODY_CAP,
  type MessageDirection,
  type MessageKind,
  type ProxyMessage,
} from '../shared/proxy-content.js';

export { Redactor };
export { redactSessionInfo } from '../redact/index.js';
export { cutUtf8 } from '../redact/index.js';

/** What the observer knows of a message besides its text. */
export interface MessageFacts {
  direction: MessageDirection;
  at: number;
  kind: MessageKind;
  method: string | null;
  /** The JSON-RPC id as JSON text, null for a notification. */
  rpcId: string | null;
  callStartedAt: string | null;
}

/** The stored form of one message. `text` is its exact relayed JSON text. */
export async function contentMessage(
  seq: number,
  facts: MessageFacts,
  text: string,
  redactor: Redactor,
  cap = MESSAGE_BODY_CAP,
): Promise<ProxyMessage> {
  const redacted = await redactor.redactJson(text);
  const { text: body, cut } = cutBody(redacted.text, cap);
  return { ...storedFacts(seq, facts, text), body, truncated: cut };
}

/**
 * What is kept of a message whatever becomes of its body: its place, direction, time, method
 * and id (each capped as the route allows) and its original size in UTF-8 bytes.
 */
export function storedFacts(
  seq: number,
  facts: MessageFacts,
  text: string,
): Omit<ProxyMessage, 'body' | 'truncated' | 'refused'> {
  return {
    seq,
    direction: facts.direction,
    at_ms: facts.at,
    method: facts.method?.slice(0, 200) ?? null,
    rpc_id: facts.rpcId?.slice(0, 200) ?? null,
    kind: facts.kind,
    bytes: Buffer.byteLength(text, 'utf8'),
    call_started_at: facts.callStartedAt,
  };
}
