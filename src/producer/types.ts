/**
 * The payloads this producer sends, exactly as the MCPulse wire contract names them
 * (shared/wire-format.md §2): the types of src/shared/wire.ts, imported type-only, so the producer
 * sends exactly what ingest validates and carries no validator at run time.
 */

/** The wire version every payload carries. */
export const WIRE_VERSION = 1;

/** How one `tools/call` ended. */
export type { Outcome } from '../shared/outcomes.js';

import type { CallPayload, StartupPayload } from '../shared/wire.js';

/** One `tools/call` and the registered tool list (the wire schema's own types). */
export type { CallPayload, StartupPayload };

/**
 * What this producer sends: calls and startups. Agreement verdicts are a payload the wire
 * accepts, but only the SDKs that check agreements send them; this producer never does.
 */
export type Payload = CallPayload | StartupPayload;
