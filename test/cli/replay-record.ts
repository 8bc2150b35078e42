/**
 * Records a real session the way the proxy does — every JSON-RPC message both ways, the call
 * payloads for /v1/ingest with the outcome rule of src/proxy/telemetry.ts, and the content
 * post for /v1/local/proxy — by running the SDK's `Client` against a real stdio server through
 * a transport that sees every message. (The proxy itself posts content on its own branch; this
 * keeps the replay tests independent of it.)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { outcomeOf, type CallEnd } from '../../src/proxy/telemetry.js';
import type { ProxyContent, ProxyMessage } from '../../src/shared/proxy-content.js';
import type { CallPayload } from '../../src/shared/wire.js';

type Raw = JSONRPCMessage & {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
};

/** A transport that tells `seen` about every message, and may rewrite what the client sends. */
class RecordingTransport implements Transport {
  onmessage?: (m: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (e: Error) => void;
  constructor(
    private readonly inner: StdioClientTransport,
    private readonly seen: (direction: 'client' | 'server', m: Raw) => void,
    private readonly rewrite: (m: Raw) => Raw,
  ) {
    inner.onmessage = (m) => {
      seen('server', m as Raw);
      this.onmessage?.(m);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
  }
  start = () => this.inner.start();
  close = () => this.inner.close();
  send(m: JSONRPCMessage): Promise<void> {
    const out = this.rewrite(m as Raw);
    this.seen('client', out);
    return this.inner.send(out);
  }
}

/** What a recorded session posts: telemetry and content. */
export interface Recording {
  ingest: { batch: CallPayload[] };
  content: ProxyContent;
}

/**
 * Runs `calls` against `command` as client `clientInfo` offering `protocolVersion`, and
 * returns what the proxy would have sent for session `sessionId`.
 */
export async function recordSession(options: {
  sessionId: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  clientInfo: { name: string; version: string };
  capabilities: Record<string, unknown>;
  protocolVersion: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
}): Promise<Recording> {
  const messages: ProxyMessage[] = [];
  const methods = new Map<string, string>();
  const started = new Map<string, { at: number; iso: string; tool: string }>();
  const batch: CallPayload[] = [];
  const seen = (direction: 'client' | 'server', m: Raw) => {
    const at = Date.now();
    const body = JSON.stringify(m);
    const rpcId = m.id === undefined ? null : JSON.stringify(m.id);
    const kind =
      m.method !== undefined
        ? rpcId === null
          ? 'notification'
          : 'request'
        : m.error
          ? 'error'
          : 'result';
    let method = m.method ?? null;
    let callStartedAt: string | null = null;
    if (kind === 'request' && rpcId !== null) {
      methods.set(`${direction}:${rpcId}`, m.method!);
      if (m.method === 'tools/call') {
        const iso = new Date(at).toISOString();
        started.set(rpcId, { at, iso, tool: String(m.params?.name) });
        callStartedAt = iso;
      }
    } else if ((kind === 'result' || kind === 'error') && rpcId !== null) {
      const asker = direction === 'server' ? 'client' : 'server';
      method = methods.get(`${asker}:${rpcId}`) ?? null;
      const call =
        direction === 'server' && method === 'tools/call' ? started.get(rpcId) : undefined;
      if (call) {
        callStartedAt = call.iso;
        const end: CallEnd =
          kind === 'result'
            ? { kind: 'result', result: m.result }
            : { kind: 'error', code: m.error!.code };
        batch.push({
          v: 1,
          type: 'call',
          session_id: options.sessionId,
          client_name: options.clientInfo.name,
          tool_name: call.tool,
          started_at: call.iso,
          duration_ms: at - call.at,
          outcome: outcomeOf(end),
          response_bytes: Buffer.byteLength(body),
          is_empty: false,
          args_hash: '000000000000',
        });
      }
    }
    messages.push({
      seq: messages.length,
      direction,
      at_ms: at,
      method,
      rpc_id: rpcId,
      kind,
      body,
      truncated: false,
      bytes: Buffer.byteLength(body),
      call_started_at: callStartedAt,
    });
  };
  // An older client: it offers its own protocol version, not the SDK's latest.
  const rewrite = (m: Raw): Raw =>
    m.method === 'initialize'
      ? ({ ...m, params: { ...m.params, protocolVersion: options.protocolVersion } } as Raw)
      : m;
  const inner = new StdioClientTransport({
    command: options.command,
    args: options.args,
    env: { ...(process.env as Record<string, string>), ...options.env },
    stderr: 'inherit',
  });
  const client = new Client(options.clientInfo, { capabilities: options.capabilities });
  await client.connect(new RecordingTransport(inner, seen, rewrite));
  for (const call of options.calls) await client.callTool(call);
  const server = client.getServerVersion();
  await client.close();
  return {
    ingest: { batch },
    content: {
      v: 1,
      session_id: options.sessionId,
      session: {
        protocol_version: options.protocolVersion,
        client: { ...options.clientInfo, capabilities: options.capabilities },
        server: {
          name: server?.name ?? null,
          version: server?.version ?? null,
          capabilities: client.getServerCapabilities() ?? null,
          instructions: client.getInstructions() ?? null,
        },
        transport: 'stdio',
      },
      messages,
    },
  };
}
