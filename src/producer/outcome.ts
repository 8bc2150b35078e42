/**
 * Telling the four outcomes apart.
 *
 * `McpServer` catches everything inside its `tools/call` handler and answers `isError: true`,
 * so from outside it a failed validation, a tool that returned an error and a tool that threw
 * look the same. The producer therefore wraps two layers: the request handler (timing, the
 * final result) and the author's own tool callback, which reports into a per-request slot what
 * it actually did. `AsyncLocalStorage` keeps concurrent calls from claiming each other's slot.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Outcome } from './types.js';

/** What the tool callback reported for the request in flight. */
export interface CallSlot {
  handlerRan: boolean;
  /** Set by the callback wrapper: ok, tool_error or crashed. */
  outcome: Outcome | null;
}

const storage = new AsyncLocalStorage<CallSlot>();

/** Runs `fn` with a fresh slot for one `tools/call`. */
export function runInSlot<T>(slot: CallSlot, fn: () => T): T {
  return storage.run(slot, fn);
}

/** The slot of the `tools/call` in flight, if any. */
export function currentSlot(): CallSlot | undefined {
  return storage.getStore();
}

/** Whether an MCP result says it failed. */
export function hasErrorFlag(result: unknown): boolean {
  return (result as { isError?: unknown } | null | undefined)?.isError === true;
}

/**
 * The outcome, from what the callback reported and what the request handler saw:
 * - callback threw → `crashed`; callback returned `isError` → `tool_error`;
 * - callback returned a result the server then refused (say, structured content that fails
 *   the output schema) → `tool_error`: the tool ran and the client got an error;
 * - callback never ran and the client got an error (arguments failed validation, or the tool
 *   does not exist) → `bad_args`;
 * - the request handler itself threw → `crashed` if the callback ran, else `bad_args`.
 */
export function decideOutcome(slot: CallSlot, result: unknown, threw: boolean): Outcome {
  if (slot.outcome === 'crashed' || slot.outcome === 'tool_error') return slot.outcome;
  if (threw) return slot.handlerRan ? 'crashed' : 'bad_args';
  if (hasErrorFlag(result)) return slot.handlerRan ? 'tool_error' : 'bad_args';
  return 'ok';
}
