/**
 * Marks sessions recorded by `mcpulse-devtools proxy` (their startup's `sdk` names it), and
 * says on the session page what a proxy cannot see that an SDK can.
 */
import './proxied-badge.css';

/** Whether a session's `sdk` is the devtools proxy. */
export function isProxied(sdk: string | null | undefined): boolean {
  return typeof sdk === 'string' && sdk.startsWith('mcpulse-devtools-proxy');
}

/** A small "proxied" badge, or nothing for SDK-reported sessions. */
export function ProxiedBadge({ sdk }: { sdk: string | null | undefined }) {
  if (!isProxied(sdk)) return null;
  return (
    <span
      className="badge info"
      data-testid="proxied-badge"
      title={`Recorded by ${sdk} from the JSON-RPC traffic, without an SDK in the server`}
    >
      proxied
    </span>
  );
}

/** What the numbers of a proxied session cannot tell, shown once on its page. */
export function ProxiedNote({ sdk }: { sdk: string | null | undefined }) {
  if (!isProxied(sdk)) return null;
  return (
    <p className="proxied-note muted small" data-testid="proxied-note">
      Recorded by the devtools proxy from the JSON-RPC traffic, not from inside the server. It
      cannot tell a handler that threw from one that returned an error (servers answer both with{' '}
      <code>isError</code>, counted as tool_error); it counts bad_args only when the server answers
      JSON-RPC -32602 (the TypeScript SDK answers validation failures with <code>isError</code>);
      durations include the pipe to the server; a call the client cancelled and the server never
      answered is not recorded.
    </p>
  );
}
