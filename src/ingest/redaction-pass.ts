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
    const report: RedactionPassReport = { messages: 0, sessions: 0, rejections: 0 };
    const rules = redactorFor(store)();
    for (let after = 0; ;) {
      await pause();
      if (stopped) return null;
      const page = storedMessagesAfter(store, after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]!.id;
      const changed = [];
      for (const m of page) {
        const r = await redactBody(m.body, m.truncated, rules);
        if (r.body !== m.body) changed.push({ id: m.id, body: r.body, truncated: r.truncated });
      }
      if (changed.length > 0) rewriteRedacted(store, { messages: changed });
      report.messages += changed.length;
    }
    for (let after = 0; ;) {
      await pause();
      if (stopped) return null;
      const page = storedSessionsAfter(store, after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]!.rowid;
      const changed: StoredSession[] = [];
      for (const s of page) {
        const r = await redactSessionRow(s, rules);
        if (r) changed.push(r);
      }
      if (changed.length > 0) rewriteRedacted(store, { sessions: changed });
      report.sessions += changed.length;
    }
    for (let after = 0; ;) {
      await pause();
      if (stopped) return null;
      const page = storedRejectionsAfter(store, after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]!.id;
      const changed = [];
      for (const x of page) {
        const r = await redactSnapshot(x, rules);
        if (r.item !== x.item) changed.push({ ...x, item: r.item });
      }
      if (changed.length > 0) rewriteRedacted(store, { rejections: changed });
      report.rejections += changed.length;
    }
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
