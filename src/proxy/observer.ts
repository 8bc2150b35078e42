/**
 * Watching MCP traffic from outside and producing the telemetry an SDK would. It only ever reads
 * copies of what the relay forwarded; nothing here can change, delay or drop a byte.
 *
 * Requests are matched to answers by id (matcher.ts), per MCP session and per direction: a
 * client's `tools/call` id 1 and a server's `sampling/createMessage` id 1 are different
 * requests, and answers from the client (to the server's requests) are never taken for tool
 * results. Several calls may be in flight; a cancelled call that still gets an answer is
 * recorded with it, and one that never does is not recorded (no outcome fits).
 */
import type { Payload } from '../producer/types.js';
import type { ProxySessionInfo, UnansweredRequest } from '../shared/proxy-content.js';
import type { ProxyMessage } from '../shared/proxy-content.js';
import { contentMessage, redactSessionInfo, Redactor } from './content.js';
import { refusedMessage } from './refused.js';
import { parseEntries, type RpcMessage } from './jsonrpc.js';
import { isTracked, type PendingRequest } from './matcher.js';
import { McpSessionState } from './session-state.js';
import {
  callPayload,
  PROXY_SDK,
  toolsOf,
  type CallEnd,
  type ProxyStartupPayload,
  type ProxyTransport,
} from './telemetry.js';

/** Anything the observer sends. */
export type ProxyPayload = Payload | ProxyStartupPayload;

/** Now, in epoch milliseconds with sub-millisecond precision (what `at` arguments are in). */
export const preciseNow = (): number => performance.timeOrigin + performance.now();

/** Counters, for the exit line and tests. */
export interface ObserverStats {
  calls: number;
  startups: number;
  /** Calls the client cancelled that never got an answer (not recorded). */
  cancelled: number;
  /** Lines or bodies that were not JSON-RPC (relayed, not observed). */
  unreadable: number;
  /**
   * Calls not recorded because part of the traffic went unobserved (the telemetry thread fell
   * too far behind): their answers may have been among the bytes that were never copied.
   */
  unobserved: number;
  /** Requests still open when the session ended cleanly (not crashes; sent as `unanswered`). */
  unanswered: number;
}

/** Where the content goes (the sink posts it to PROXY_CONTENT_PATH). */
export interface ContentTarget {
  message(sessionId: string, message: ProxyMessage): void;
  session(sessionId: string, info: ProxySessionInfo): void;
  unanswered(sessionId: string, requests: UnansweredRequest[]): void;
}

/** Options for {@link TrafficObserver}. */
export interface ObserverOptions {
  /**
   * The MCPulse session id (`s_` + 12 hex) of each MCP session seen: a fixed one (stdio: one
   * per proxy process), or a function giving a fresh one per session (HTTP).
   */
  sessionId: string | (() => string);
  transport: ProxyTransport;
  /**
   * Receives every payload; must not throw (errors are swallowed). `at`: when the traffic that
   * completed the payload was relayed ({@link preciseNow}).
   */
  emit: (payload: ProxyPayload, at: number) => void;
  /** `--client NAME`: the client name for every payload, instead of `clientInfo.name`. */
  clientName?: string;
  /** Receives session info, unanswered requests and (with `bodies`) every message. */
  content?: ContentTarget;
  /**
   * Redacts everything handed to `content` (bodies and the session's `initialize` facts)
   * before it leaves the observer: secrets never travel (issue 40). Default: the built-in rules.
   */
  redactor?: Redactor;
  /** Capture message bodies (`--no-content` leaves them out). */
  bodies?: boolean;
  /** The server's `serverInfo.name` from its first `initialize` answer (null if it sent none). */
  onServerName?: (name: string | null) => void;
}

/** Reads both directions of MCP traffic and emits `startup` and `call` payloads. */
export class TrafficObserver {
  private readonly sessions = new Map<string, McpSessionState>();
  private readonly counters: ObserverStats = {
    calls: 0,
    startups: 0,
    cancelled: 0,
    unreadable: 0,
    unobserved: 0,
    unanswered: 0,
  };
  private serverNamed = false;
  private readonly redactor: Redactor;
  /**
   * Content waiting for redaction (async: secretlint), handed on in the order it was seen.
   * {@link settled} waits for it before the sink's last send or hand-off.
   */
  private redacting: Promise<void> = Promise.resolve();

  constructor(private readonly options: ObserverOptions) {
    this.redactor = options.redactor ?? new Redactor();
  }

  /** Resolves once every message seen so far is redacted and handed to `content`. */
  settled(): Promise<void> {
    return this.redacting;
  }

  /** Runs `work` after the content before it; a failure loses only its own item. */
  private enqueue(work: () => Promise<void>): void {
    this.redacting = this.redacting.then(work).catch(() => {});
  }

  /**
   * One JSON text the client sent (a line, or an HTTP body). Returns the id keys of the
   * requests it started tracking, so an HTTP exchange can say which calls it carries. `at` is
   * when the relay saw it ({@link preciseNow}), which may be a little before this runs.
   */
  fromClient(text: string, scope = '', at = preciseNow()): string[] {
    const started: string[] = [];
    for (const entry of this.parse(text)) {
      try {
        const state = this.session(scope);
        this.log(state, entry, 'client', at);
        const key = this.clientMessage(entry.message, state, at);
        if (key) started.push(key);
      } catch {
        // An observer bug must never reach the relay.
      }
    }
    return started;
  }

  /** One JSON text the server sent, seen by the relay at `at`. */
  fromServer(text: string, scope = '', at = preciseNow()): void {
    for (const entry of this.parse(text)) {
      try {
        const state = this.session(scope);
        this.log(state, entry, 'server', at);
        this.serverMessage(entry.message, state, at);
      } catch {
        // As above.
      }
    }
  }

  /** Makes `alias` name the same MCP session as `scope` (HTTP: once the server assigns an id). */
  link(scope: string, alias: string): void {
    if (scope !== alias) this.sessions.set(alias, this.session(scope));
  }

  /**
   * The server went away (exited, or closed the stream) with these requests unanswered: each
   * pending call is recorded as `crashed`, except ones the client had cancelled. Without `keys`,
   * every pending request of the scope. With `withdrawn`, the client went away instead: the
   * calls are not recorded (nobody saw how they ended), as with a cancel.
   */
  abandon(scope = '', keys?: Iterable<string>, withdrawn = false, at = preciseNow()): void {
    const state = this.sessions.get(scope);
    if (!state) return;
    for (const key of keys ?? state.pending.keys()) {
      const pending = state.pending.take(key);
      if (!pending) continue;
      if (pending.method !== 'tools/call') continue;
      if (pending.cancelled || withdrawn) this.counters.cancelled++;
      else this.recordCall(state, pending, { kind: 'gone' }, at);
    }
  }

  /**
   * The session is over. `clean` (the client closed and the server exited 0, or an HTTP proxy
   * was stopped): requests still open are not crashes; they are sent as `unanswered` content
   * and no call is recorded for them. Otherwise the server died: {@link abandon} for every
   * session, each pending call `crashed`.
   */
  abandonAll(at = preciseNow(), clean = false): void {
    // One entry per state: an HTTP session is under its exchange scope and its server id.
    for (const [state, scope] of new Map([...this.sessions].map(([k, v]) => [v, k]))) {
      if (!clean) {
        this.abandon(scope, undefined, false, at);
        continue;
      }
      for (const key of state.pending.keys()) state.pending.take(key);
      const open = state.takeUnanswered();
      this.counters.unanswered += open.length;
      const content = this.options.content;
      if (open.length > 0 && content)
        this.enqueue(async () => content.unanswered(state.sessionId, open));
    }
  }

  /**
   * Some of the server's bytes were relayed without being observed: any request still pending
   * may have been answered in them, so none is recorded (not as crashed at the end either).
   * A gap in the client's bytes needs nothing: an answer to a request never seen is ignored.
   */
  serverGap(): void {
    for (const state of new Set(this.sessions.values())) {
      for (const key of state.pending.keys()) {
        if (state.pending.take(key)?.method === 'tools/call') this.counters.unobserved++;
      }
    }
  }

  stats(): ObserverStats {
    return { ...this.counters };
  }

  private parse(text: string): ReturnType<typeof parseEntries> {
    if (text.trim() === '') return [];
    const entries = parseEntries(text);
    if (entries.length === 0) this.counters.unreadable++;
    return entries;
  }

  private session(scope: string): McpSessionState {
    let state = this.sessions.get(scope);
    if (!state) {
      const id = this.options.sessionId;
      state = new McpSessionState({
        sessionId: typeof id === 'string' ? id : id(),
        transport: this.options.transport,
        clientName: this.options.clientName,
      });
      this.sessions.set(scope, state);
    }
    return state;
  }

  /** Files the message in its session and, when capturing, hands its stored form on. */
  private log(
    state: McpSessionState,
    entry: ReturnType<typeof parseEntries>[number],
    direction: 'client' | 'server',
    at: number,
  ): void {
    const facts = state.facts(entry.message, direction, at);
    const { content, bodies } = this.options;
    if (!content || !bodies) return;
    const seq = state.seq++;
    const sessionId = state.sessionId;
    const redactor = this.redactor;
    // Delivery is the sink's business, as in send(); a failure is swallowed by enqueue.
    this.enqueue(async () => {
      let message: ProxyMessage;
      try {
        message = await contentMessage(seq, facts, entry.text, redactor);
      } catch (error) {
        // Its stored form could not be made (a walk overflowed on a 200,000-deep value): it is
        // sent as a refusal with the reason, which the server records on the ingest log.
        message = refusedMessage(seq, facts, entry.text, error);
      }
      content.message(sessionId, message);
    });
  }

  private clientMessage(m: RpcMessage, state: McpSessionState, at: number): string | null {
    if (m.kind === 'notification') {
      if (m.method === 'notifications/cancelled') {
        const id = (m.params as { requestId?: unknown } | null)?.requestId;
        if (typeof id === 'string' || typeof id === 'number') {
          state.pending.cancel(id);
        }
      }
      return null;
    }
    if (m.kind !== 'request' || !isTracked(m.method)) return null;
    if (m.method === 'initialize') {
      state.clientInitialize(m.params);
      const name = (m.params as { clientInfo?: { name?: unknown } } | null)?.clientInfo?.name;
      if (this.options.clientName) state.clientName = this.options.clientName.slice(0, 128);
      else if (typeof name === 'string' && name) state.clientName = name.slice(0, 128);
    }
    const { key, displaced } = state.pending.start(m.id, m.method, m.params, at);
    // An id reused while still pending (after a cancel, or by a confused client): the newer
    // request owns the id; a cancelled predecessor will never be answered.
    if (displaced?.method === 'tools/call' && displaced.cancelled) this.counters.cancelled++;
    return key;
  }

  private serverMessage(m: RpcMessage, state: McpSessionState, at: number): void {
    if (m.kind === 'notification') {
      if (m.method === 'notifications/tools/list_changed') state.listChanged = true;
      return;
    }
    if ((m.kind !== 'result' && m.kind !== 'error') || m.id === null) return;
    const pending = state.pending.answer(m.id);
    if (!pending) return;
    if (pending.method === 'tools/call') {
      const end: CallEnd =
        m.kind === 'result'
          ? { kind: 'result', result: m.result }
          : { kind: 'error', code: m.code };
      this.recordCall(state, pending, end, at);
    } else if (m.kind === 'result' && pending.method === 'initialize') {
      const info = state.serverInitialize(m.result);
      state.protocolVersion = info.protocol_version;
      const content = this.options.content;
      const sessionId = state.sessionId;
      if (content)
        this.enqueue(async () =>
          content.session(sessionId, await redactSessionInfo(info, this.redactor)),
        );
      if (!this.serverNamed) {
        this.serverNamed = true;
        this.options.onServerName?.(info.server.name);
      }
    } else if (m.kind === 'result' && pending.method === 'tools/list') {
      this.listed(state, pending, m.result, at);
    }
  }

  /** A `tools/list` page: gathers pages; the last one sends a startup if the list is news. */
  private listed(
    state: McpSessionState,
    pending: PendingRequest,
    result: unknown,
    at: number,
  ): void {
    const page = (result ?? {}) as { tools?: unknown; nextCursor?: unknown };
    const tools = Array.isArray(page.tools) ? page.tools : [];
    const continued = (pending.params as { cursor?: unknown } | null)?.cursor !== undefined;
    state.toolPages = continued ? [...state.toolPages, ...tools] : [...tools];
    if (typeof page.nextCursor === 'string' && page.nextCursor !== '') return;
    const described = toolsOf(state.toolPages);
    state.toolPages = [];
    const fingerprint = JSON.stringify(described);
    if (fingerprint === state.lastSent && !state.listChanged) return;
    state.lastSent = fingerprint;
    state.listChanged = false;
    this.counters.startups++;
    this.send(
      {
        v: 1,
        type: 'startup',
        session_id: state.sessionId,
        client_name: state.clientName,
        sdk: PROXY_SDK,
        transport: this.options.transport,
        protocol_version: state.protocolVersion,
        tools: described,
      },
      at,
    );
  }

  private recordCall(
    state: McpSessionState,
    pending: PendingRequest,
    end: CallEnd,
    at: number,
  ): void {
    this.counters.calls++;
    this.send(
      callPayload({
        sessionId: state.sessionId,
        clientName: state.clientName,
        params: pending.params,
        startedAt: new Date(pending.at).toISOString(),
        durationMs: at - pending.at,
        end,
      }),
      at,
    );
  }

  private send(payload: ProxyPayload, at: number): void {
    try {
      this.options.emit(payload, at);
    } catch {
      // Delivery is the sink's business; the observer keeps going.
    }
  }
}
