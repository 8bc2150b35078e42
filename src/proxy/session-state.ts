/**
 * One MCP session as the observer follows it (stdio has one; HTTP one per `Mcp-Session-Id`, and
 * one per stateless exchange): its own MCPulse session id, the requests of both sides still
 * open (for the message log's method of an answer, and for the unanswered list), what both
 * sides said at `initialize`, and the message sequence.
 */
import type { MessageKind, ProxySessionInfo, UnansweredRequest } from '../shared/proxy-content.js';
import { idKey, type RpcId, type RpcMessage } from './jsonrpc.js';
import { PendingRequests } from './matcher.js';
import type { MessageFacts } from './content.js';
import type { ProxyTransport } from './telemetry.js';

/** A request of either side that has not been answered yet. */
interface OpenRequest {
  rpcId: string;
  method: string;
  toolName: string | null;
  at: number;
  /** For a `tools/call`: the `started_at` its call payload carries. */
  callStartedAt: string | null;
}

type Peer = ProxySessionInfo['client'];
const NO_PEER: Peer = { name: null, version: null, capabilities: null };

const str = (v: unknown, max = 200): string | null =>
  typeof v === 'string' ? v.slice(0, max) : null;
const record = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** What the state is created with. */
export interface SessionStateInit {
  sessionId: string;
  transport: ProxyTransport;
  clientName: string | undefined;
}

/** The state of one MCP session. */
export class McpSessionState {
  readonly sessionId: string;
  clientName = 'unknown';
  protocolVersion: string | null = null;
  /** The client's requests whose answers telemetry reads (tools/call, tools/list, initialize). */
  readonly pending = new PendingRequests();
  /** Tools of a paginated `tools/list` gathered so far. */
  toolPages: unknown[] = [];
  /** The last tool list sent, to skip identical re-lists; `null` before the first. */
  lastSent: string | null = null;
  listChanged = false;
  /** Next message's seq. */
  seq = 0;
  /** Every client request not yet answered, and every server request, by id key. */
  private readonly fromClient = new Map<string, OpenRequest>();
  private readonly fromServer = new Map<string, OpenRequest>();
  private client: Peer = NO_PEER;
  private readonly transport: ProxyTransport;

  constructor(init: SessionStateInit) {
    this.sessionId = init.sessionId;
    this.transport = init.transport;
    if (init.clientName) this.clientName = init.clientName.slice(0, 128);
  }

  /**
   * Files one message and says what the log needs of it: its kind, method (for an answer, the
   * method of the request it answers), id, and the call it belongs to.
   */
  facts(m: RpcMessage, direction: 'client' | 'server', at: number): MessageFacts {
    const mine = direction === 'client' ? this.fromClient : this.fromServer;
    const theirs = direction === 'client' ? this.fromServer : this.fromClient;
    const rpcId = (id: RpcId | null) => (id === null ? null : JSON.stringify(id));
    if (m.kind === 'notification')
      return { direction, at, kind: m.kind, method: m.method, rpcId: null, callStartedAt: null };
    if (m.kind === 'request') {
      const name = m.method === 'tools/call' ? str(record(m.params)?.name) : null;
      const callStartedAt = m.method === 'tools/call' ? new Date(at).toISOString() : null;
      const open = { rpcId: rpcId(m.id)!, method: m.method, toolName: name, at, callStartedAt };
      mine.set(idKey(m.id), open);
      return { direction, at, kind: 'request', method: m.method, rpcId: open.rpcId, callStartedAt };
    }
    // An answer settles the other side's request of that id.
    const key = m.id === null ? null : idKey(m.id);
    const answered = key === null ? undefined : theirs.get(key);
    if (key !== null) theirs.delete(key);
    return {
      direction,
      at,
      kind: m.kind as MessageKind,
      method: answered?.method ?? null,
      rpcId: rpcId(m.id),
      callStartedAt: answered?.callStartedAt ?? null,
    };
  }

  /** The client's `initialize` request: its name, version and capabilities. */
  clientInitialize(params: unknown): void {
    const p = record(params);
    const info = record(p?.clientInfo);
    this.client = {
      name: str(info?.name),
      version: str(info?.version),
      capabilities: record(p?.capabilities),
    };
  }

  /** The server's `initialize` result as session info (with the client's side). */
  serverInitialize(result: unknown): ProxySessionInfo {
    const r = record(result);
    const info = record(r?.serverInfo);
    return {
      protocol_version: str(r?.protocolVersion, 64),
      client: this.client,
      server: {
        name: str(info?.name),
        version: str(info?.version),
        capabilities: record(r?.capabilities),
        instructions: typeof r?.instructions === 'string' ? r.instructions : null,
      },
      transport: this.transport,
    };
  }

  /** Takes the client's requests still open (the session ended with them unanswered). */
  takeUnanswered(): UnansweredRequest[] {
    const open = [...this.fromClient.values()].map((r) => ({
      rpc_id: r.rpcId,
      method: r.method.slice(0, 200),
      tool_name: r.toolName,
      sent_at_ms: r.at,
    }));
    this.fromClient.clear();
    return open;
  }
}
