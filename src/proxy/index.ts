/**
 * The MCP proxy: relays a client's traffic to an MCP server unchanged (stdio or Streamable HTTP)
 * and sends the telemetry an MCPulse SDK would, so a server shows up in the dashboard with no
 * SDK installed. See docs/proxy.md.
 */
export { LineSplitter } from './lines.js';
export { idKey, parseMessages, type RpcMessage } from './jsonrpc.js';
export { SseReader } from './sse.js';
export { PendingRequests, isTracked, type PendingRequest, type TrackedMethod } from './matcher.js';
export {
  preciseNow,
  TrafficObserver,
  type ObserverOptions,
  type ObserverStats,
  type ProxyPayload,
} from './observer.js';
export {
  callPayload,
  outcomeOf,
  PROXY_SDK,
  PROXY_SDK_NAME,
  type ProxyStartupPayload,
} from './telemetry.js';
export {
  TelemetrySink,
  dropLine,
  HIGH_WATER,
  MAX_AGE_MS,
  QUIET_MS,
  type SinkOptions,
  type SinkReport,
} from './sink.js';
export {
  startStdioRelay,
  type RelayTap,
  type StdioRelay,
  type StdioRelayEnd,
} from './stdio-relay.js';
export {
  RING_BYTES,
  TelemetryThread,
  unobservedLine,
  type TelemetryInit,
  type TelemetryResult,
} from './telemetry-thread.js';
export { startHttpRelay, type HttpRelay } from './http-relay.js';
