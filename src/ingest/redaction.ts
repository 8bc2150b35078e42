/**
 * Redaction at the server's one chokepoint for content (issue 40): every body the content
 * route stores — from the proxy, from `import --content`, from anything that posts to it — goes
 * through the engine with the built-in rules and the user's rules from settings, before the
 * store sees it. What the proxy already redacted is left as it is (markers are never matched
 * again), so redacting at both ends costs one pre-check here for a clean message.
 */
import { cutBody, Redactor, trimCutTail } from '../redact/index.js';
export { redactSessionInfo } from '../redact/index.js';
import { MESSAGE_BODY_CAP, type ProxyMessage } from '../shared/proxy-content.js';
import { parseRedactionRules, redactionSettingsText, type ReadStore } from '../store/index.js';

/** The redactor for `store`'s current settings, rebuilt only when they change. */
export function redactorFor(store: ReadStore): () => Redactor {
  let text: string | null | undefined;
  let redactor = new Redactor();
  return () => {
    const now = redactionSettingsText(store);
    if (now !== text) {
      text = now;
      try {
        redactor = new Redactor(parseRedactionRules(now));
      } catch {
        // Rules saved through the API were checked; a hand-edited bad one falls back to the
        // built-in rules rather than failing ingest.
        redactor = new Redactor();
      }
    }
    return redactor;
  };
}

/**
 * One message as stored: its body redacted, a cut body's tail made safe first (the cut may
 * have left the start of a secret no rule matches whole), and cut again if markers made it
 * longer than the cap. `bytes` stays the original size.
 */
export async function redactMessage(m: ProxyMessage, redactor: Redactor): Promise<ProxyMessage> {
  const r = await redactBody(m.body, m.truncated, redactor);
  return r.body === m.body ? m : { ...m, ...r };
}

/** A stored body (JSON text, cut when `truncated`) redacted as {@link redactMessage} does. */
export async function redactBody(
  text: string,
  truncated: boolean,
  redactor: Redactor,
): Promise<{ body: string; truncated: boolean }> {
  const body = truncated ? trimCutTail(text) : text;
  const r = await redactor.redactJson(body);
  if (r.text === text) return { body: text, truncated };
  const cut = cutBody(r.text, MESSAGE_BODY_CAP);
  return { body: cut.text, truncated: truncated || cut.cut };
}

/** An ingest-log snapshot of a refused item (JSON text, maybe cut), redacted. */
export async function redactSnapshot(
  snapshot: { item: string; truncated: boolean },
  redactor: Redactor,
): Promise<{ item: string; truncated: boolean }> {
  const item = snapshot.truncated ? trimCutTail(snapshot.item) : snapshot.item;
  const r = await redactor.redactJson(item);
  return r.text === snapshot.item ? snapshot : { ...snapshot, item: r.text };
}
