/**
 * Content stored before the server redacted it (a database from an earlier version) is
 * redacted once, in the background, when the server starts: proxy message bodies, sessions'
 * `initialize` facts and refused items' snapshots, a page at a time with the event loop free
 * between pages (ingest goes first), each page one transaction. A file done is marked in
 * `settings`, so it runs once per file (src/store/redaction-pass.ts).
 */
import type { Redactor } from '../redact/index.js';
import {
  finishRedactionPass,
  redactionPassDone,
  rewriteRedacted,
  storedMessagesAfter,
  storedRejectionsAfter,
  storedSessionsAfter,
  type StoredSession,
  type Store,
} from '../store/index.js';
import { redactBody, redactorFor, redactSnapshot } from './redaction.js';

const PAGE = 200;
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What one pass rewrote. */
export interface RedactionPassReport {
  messages: number;
  sessions: number;
  rejections: number;
}

/** Starts the pass if this file needs it; `stop()` ends it between pages (it resumes next start). */
export function startStoredContentRedaction(store: Store): {
  stop(): void;
  done: Promise<RedactionPassReport | null>;
} {
  let stopped = false;
  const done = (async () => {
    if (redactionPassDone(store)) return null;
    const rules = redactorFor(store)();
    /**
     * One table, a page at a time: read rows after the last key, redact each (null: unchanged),
     * rewrite the changed ones. Resolves to how many were rewritten, or null once stopped.
     */
    async function pass<T>(
      read: (after: number) => T[],
      key: (row: T) => number,
      redact: (row: T) => Promise<T | null>,
      write: (rows: T[]) => void,
    ): Promise<number | null> {
      let rewritten = 0;
      for (let after = 0; ;) {
        await pause();
        if (stopped) return null;
        const page = read(after);
        if (page.length === 0) return rewritten;
        after = key(page[page.length - 1]!);
        const changed: T[] = [];
        for (const row of page) {
          const r = await redact(row);
          if (r) changed.push(r);
        }
        if (changed.length > 0) write(changed);
        rewritten += changed.length;
      }
    }
    const messages = await pass(
      (after) => storedMessagesAfter(store, after, PAGE),
      (m) => m.id,
      async (m) => {
        const r = await redactBody(m.body, m.truncated, rules);
        return r.body === m.body ? null : { id: m.id, body: r.body, truncated: r.truncated };
      },
      (rows) => rewriteRedacted(store, { messages: rows }),
    );
    if (messages === null) return null;
    const sessions = await pass(
      (after) => storedSessionsAfter(store, after, PAGE),
      (s) => s.rowid,
      (s) => redactSessionRow(s, rules),
      (rows) => rewriteRedacted(store, { sessions: rows }),
    );
    if (sessions === null) return null;
    const rejections = await pass(
      (after) => storedRejectionsAfter(store, after, PAGE),
      (x) => x.id,
      async (x) => {
        const r = await redactSnapshot(x, rules);
        return r.item === x.item ? null : { ...x, item: r.item };
      },
      (rows) => rewriteRedacted(store, { rejections: rows }),
    );
    if (rejections === null) return null;
    const report: RedactionPassReport = { messages, sessions, rejections };
    finishRedactionPass(store, report.messages + report.sessions + report.rejections > 0);
    return report;
  })().catch(() => null);
  return {
    stop: () => {
      stopped = true;
    },
    done,
  };
}

/** A session row with its texts redacted, or null when nothing changed. */
async function redactSessionRow(s: StoredSession, rules: Redactor): Promise<StoredSession | null> {
  const out = { ...s };
  let changed = false;
  for (const k of [
    'client_name',
    'client_version',
    'server_name',
    'server_version',
    'server_instructions',
  ] as const) {
    const v = s[k];
    if (v === null) continue;
    const r = await rules.redactText(v);
    if (r.count > 0) {
      out[k] = r.text;
      changed = true;
    }
  }
  for (const k of ['client_capabilities', 'server_capabilities'] as const) {
    const v = s[k];
    if (v === null) continue;
    const r = await rules.redactJson(v);
    if (r.count > 0) {
      out[k] = r.text;
      changed = true;
    }
  }
  return changed ? out : null;
}
