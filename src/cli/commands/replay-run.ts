/**
 * Re-sending a recorded session to a server: start COMMAND over stdio with the SDK's
 * `Client` + `StdioClientTransport`, initialize as the captured client did, call each tool
 * in order, and judge each answer by the rule the proxy records outcomes with.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { textParts } from '../../metrics/call-content.js';
import { outcomeOf, type CallEnd } from '../../proxy/telemetry.js';
import type { CallResult, RecordedSession } from './replay-source.js';

/** What one re-sent call came to; null for a call not re-sent. */
export type ReplayedCall = CallResult | null;

/** Options for {@link replaySession}. */
export interface ReplayOptions {
  command: string;
  args: string[];
  /** Per request, initialize included. */
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
}

/** The server could not be started or did not initialize. */
export class ServerStartError extends Error {}

/** An McpError's own message, without the SDK's `MCP error <code>: ` prefix. */
const mcpMessage = (e: McpError): string => e.message.replace(/^MCP error -?\d+: /, '');

/**
 * The SDK's `Client` always offers its latest protocol version; the captured client may have
 * offered another. Rewriting the outgoing `initialize` offers the captured one instead, so the
 * server negotiates as it did in the recorded session.
 */
function offerProtocolVersion(transport: StdioClientTransport, version: string | null): void {
  if (version === null) return;
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    const m = message as { method?: string; params?: Record<string, unknown> };
    if (m.method === 'initialize' && m.params)
      return send({
        ...message,
        params: { ...m.params, protocolVersion: version },
      } as JSONRPCMessage);
    return send(message);
  };
}

/** Replays every call of `session` against a fresh server; the results in call order. */
export async function replaySession(
  session: RecordedSession,
  options: ReplayOptions,
): Promise<ReplayedCall[]> {
  const env = Object.fromEntries(
    Object.entries(options.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: options.command,
    args: options.args,
    env,
    stderr: 'inherit',
  });
  offerProtocolVersion(transport, session.protocol_version);
  const client = new Client(session.client, { capabilities: session.capabilities });
  let gone = false;
  client.onclose = () => {
    gone = true;
  };
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    await client.close().catch(() => {});
    throw new ServerStartError(
      `the server did not initialize: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const results: ReplayedCall[] = [];
  try {
    for (const call of session.calls) {
      if (call.skip !== null) {
        results.push(null);
        continue;
      }
      const t0 = performance.now();
      let end: CallEnd;
      let text: string | null = null;
      if (gone) end = { kind: 'gone' };
      else {
        try {
          const result = await client.callTool(
            { name: call.tool, arguments: call.arguments ?? undefined },
            undefined,
            { timeout: options.timeoutMs },
          );
          end = { kind: 'result', result };
          text = textParts(result);
        } catch (error) {
          if (error instanceof McpError) {
            end = { kind: 'error', code: error.code };
            text = mcpMessage(error);
          } else {
            end = { kind: 'gone' };
            text = error instanceof Error ? error.message : String(error);
          }
        }
      }
      results.push({
        outcome: outcomeOf(end),
        duration_ms: Math.round(performance.now() - t0),
        text: gone && end.kind === 'gone' ? (text ?? 'the server exited') : text,
      });
    }
  } finally {
    await client.close().catch(() => {});
  }
  return results;
}
