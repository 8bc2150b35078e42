/**
 * The payloads this producer sends, exactly as the MCPulse wire contract names them
 * (shared/wire-format.md §2). Declared here rather than imported from the ingest side so the
 * producer stays a self-contained client with no dependency on the receiver's validator.
 */

/** The wire version every payload carries. */
export const WIRE_VERSION = 1;

/** How one `tools/call` ended. */
export type Outcome = 'ok' | 'bad_args' | 'tool_error' | 'crashed';

/** One `tools/call`. */
export interface CallPayload {
  v: typeof WIRE_VERSION;
  type: 'call';
  session_id: string;
  client_name: string;
  tool_name: string;
  started_at: string;
  duration_ms: number;
  outcome: Outcome;
  response_bytes: number;
  is_empty: boolean;
  args_hash: string;
}

/** The registered tool list, with what each tool's schema costs the context window. */
export interface StartupPayload {
  v: typeof WIRE_VERSION;
  type: 'startup';
  session_id: string;
  client_name: string;
  tools: { name: string; schema_bytes: number }[];
}

export type Payload = CallPayload | StartupPayload;
