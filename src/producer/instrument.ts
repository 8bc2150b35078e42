/**
 * Attaching to an `McpServer` from @modelcontextprotocol/sdk without changing what it does.
 *
 * Public API covers most of it: `registerTool` hands back the registered tool whose `handler`
 * may be replaced, `server.server.oninitialized` fires once per handshake and
 * `getClientVersion()` names the client. Two things need the low-level dispatcher's handler
 * map: timing `tools/call` end to end (validation included, which happens before the callback)
 * and reading `tools/list` for the startup's schema sizes. When that map is not there (an SDK
 * this code does not recognise), the server is left untouched and simply not measured.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { PayloadBuffer } from './buffer.js';
import { hashArguments, isEmptyResult, responseBytes } from './measure.js';
import { currentSlot, decideOutcome, hasErrorFlag, runInSlot, type CallSlot } from './outcome.js';
import { WIRE_VERSION } from './types.js';

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;
type AnyFunction = (...args: unknown[]) => unknown;

/** The parts of the SDK's objects used here, typed loosely because some are not public. */
interface LowLevelServer {
  _requestHandlers?: Map<string, RequestHandler>;
  oninitialized?: () => void;
  getClientVersion?: () => { name?: unknown } | undefined;
}
interface ToolHandle {
  handler?: unknown;
  update?: unknown;
}
interface HighLevelServer {
  server?: LowLevelServer;
  _registeredTools?: Record<string, ToolHandle>;
}

/** What every watched server of one producer shares. */
export interface WatchContext {
  sessionId: string;
  buffer: PayloadBuffer;
  /** Sent as `session_label` on each startup, when set. */
  sessionLabel?: string;
}

/** Functions this module made, so nothing is ever wrapped twice. */
const ours = new WeakSet<object>();
const watched = new WeakSet<object>();

const TOOLS_CALL = 'tools/call';
const TOOLS_LIST = 'tools/list';

/**
 * Instruments `server` in place and returns it. Never throws: if anything about the server is
 * unexpected, it is returned as it was.
 */
export function watchServer(server: McpServer, ctx: WatchContext): McpServer {
  try {
    const high = server as unknown as HighLevelServer;
    const low = high.server;
    if (!low?._requestHandlers || watched.has(server)) return server;
    watched.add(server);

    const clientName = (): string => {
      try {
        const name = low.getClientVersion?.()?.name;
        return typeof name === 'string' && name.length > 0 ? name.slice(0, 128) : 'unknown';
      } catch {
        return 'unknown';
      }
    };

    const wrapCalls = (): void =>
      wrapRequestHandler(low, (original) => timedCall(original, ctx, clientName));
    for (const tool of Object.values(high._registeredTools ?? {})) wrapToolHandle(tool);
    patchRegistration(server, wrapCalls);
    // `McpServer` creates its tools/call handler with the first registration, so this may find
    // nothing yet; patchRegistration re-applies it after every registration.
    wrapCalls();

    const previous = low.oninitialized;
    low.oninitialized = () => {
      try {
        previous?.();
      } finally {
        void sendStartup(low, ctx, clientName());
      }
    };
  } catch {
    // Instrumentation failing must look exactly like instrumentation never attached.
  }
  return server;
}

function wrapRequestHandler(
  low: LowLevelServer,
  make: (original: RequestHandler) => RequestHandler,
): void {
  const original = low._requestHandlers?.get(TOOLS_CALL);
  if (typeof original !== 'function' || ours.has(original)) return;
  const wrapper = make(original);
  ours.add(wrapper);
  low._requestHandlers!.set(TOOLS_CALL, wrapper);
}

/** The request-level wrapper: times the whole call and records it once, whatever happens. */
function timedCall(
  original: RequestHandler,
  ctx: WatchContext,
  clientName: () => string,
): RequestHandler {
  return (request, extra) => {
    const slot: CallSlot = { handlerRan: false, outcome: null };
    return runInSlot(slot, async () => {
      const startedAt = new Date().toISOString();
      const t0 = performance.now();
      let result: unknown;
      let threw = false;
      try {
        result = await original(request, extra);
        return result;
      } catch (error) {
        threw = true;
        throw error;
      } finally {
        try {
          const params = (request as { params?: { name?: unknown; arguments?: unknown } } | null)
            ?.params;
          const outcome = decideOutcome(slot, result, threw);
          ctx.buffer.add({
            v: WIRE_VERSION,
            type: 'call',
            session_id: ctx.sessionId,
            client_name: clientName(),
            tool_name: String(params?.name ?? 'unknown').slice(0, 200) || 'unknown',
            started_at: startedAt,
            duration_ms: Math.max(0, Math.round(performance.now() - t0)),
            outcome,
            response_bytes: responseBytes(result),
            // An error has its own outcome; it is never also "empty".
            is_empty: outcome === 'ok' && isEmptyResult(result),
            args_hash: hashArguments(params?.arguments),
          });
        } catch {
          // Recording must never be the reason a tool call fails.
        }
      }
    });
  };
}

/** Wraps the author's callback so it reports into the slot what it actually did. */
function wrapToolHandle(tool: ToolHandle | undefined): void {
  if (!tool || typeof tool.handler !== 'function' || ours.has(tool.handler)) return;
  const original = tool.handler as AnyFunction;
  const instrumented = async (...args: unknown[]): Promise<unknown> => {
    const slot = currentSlot();
    if (slot) slot.handlerRan = true;
    try {
      const result = await original(...args);
      if (slot) slot.outcome = hasErrorFlag(result) ? 'tool_error' : 'ok';
      return result;
    } catch (error) {
      if (slot) slot.outcome = 'crashed';
      throw error;
    }
  };
  ours.add(instrumented);
  tool.handler = instrumented;
  patchUpdate(tool);
}

/** `update({ callback })` installs a fresh, unwrapped callback: wrap it again afterwards. */
function patchUpdate(tool: ToolHandle): void {
  if (typeof tool.update !== 'function' || ours.has(tool.update)) return;
  const original = tool.update as AnyFunction;
  const patched = function (this: unknown, ...args: unknown[]): unknown {
    const out = original.apply(this, args);
    wrapToolHandle(tool);
    return out;
  };
  ours.add(patched);
  tool.update = patched;
}

/** Patches `registerTool` and the older `tool` so tools registered later are measured too. */
function patchRegistration(server: McpServer, after: () => void): void {
  const target = server as unknown as Record<string, unknown>;
  for (const method of ['registerTool', 'tool'] as const) {
    const original = target[method];
    if (typeof original !== 'function' || ours.has(original)) continue;
    const patched = function (this: unknown, ...args: unknown[]): unknown {
      const handle = (original as AnyFunction).apply(this ?? server, args);
      try {
        wrapToolHandle(handle as ToolHandle);
        after();
      } catch {
        // A registration must not fail because it is being watched.
      }
      return handle;
    };
    ours.add(patched);
    target[method] = patched;
  }
}

/**
 * One startup payload per handshake (as the TypeScript SDK sends), with each tool's
 * `schema_bytes` measured on the JSON the client actually receives from `tools/list`.
 */
async function sendStartup(
  low: LowLevelServer,
  ctx: WatchContext,
  clientName: string,
): Promise<void> {
  try {
    const list = low._requestHandlers?.get(TOOLS_LIST);
    const tools: { name: string; schema_bytes: number }[] = [];
    if (typeof list === 'function') {
      const extra = {
        signal: new AbortController().signal,
        requestId: 0,
        sendNotification: async () => {},
        sendRequest: async () => ({}),
      };
      const result = (await list({ method: TOOLS_LIST, params: {} }, extra)) as {
        tools?: unknown;
      } | null;
      for (const tool of Array.isArray(result?.tools) ? result.tools : []) {
        const name = (tool as { name?: unknown } | null)?.name;
        if (typeof name === 'string' && name.length > 0)
          tools.push({ name, schema_bytes: responseBytes(tool) });
      }
    }
    ctx.buffer.add({
      v: WIRE_VERSION,
      type: 'startup',
      session_id: ctx.sessionId,
      client_name: clientName,
      tools: tools.slice(0, 500),
      // An extra field the contract allows on startups: what the dashboard names the session by.
      ...(ctx.sessionLabel ? { session_label: ctx.sessionLabel } : {}),
    });
  } catch {
    // No tool list is better than a broken handshake.
  }
}
