/**
 * DNS-rebinding and cross-site guards. A page on evil.example can resolve its own name to
 * 127.0.0.1 and talk to us; the `Host` it sends is still evil.example, so we refuse any Host
 * that is not a loopback name (or one the user named explicitly). A cross-origin page on a
 * loopback name is caught by the `Origin` check instead.
 */

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Splits `name:port` / `[v6]:port` and returns the lower-case host name. */
export function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

/** True for `localhost`, `*.localhost`, 127.0.0.0/8 and `::1`. */
export function isLoopbackName(name: string): boolean {
  return (
    LOOPBACK_NAMES.has(name) ||
    name.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

export interface HostPolicy {
  /** Extra host names the user allowed (`--host NAME`, `--allow-host NAME`). */
  allowedHosts: readonly string[];
  /** Listening on a wildcard address by choice: ingest accepts any Host; the UI still does not. */
  wildcard: boolean;
}

/** Is a request with this `Host` header allowed to reach `path`? */
export function hostAllowed(
  hostHeader: string | undefined,
  path: string,
  policy: HostPolicy,
): boolean {
  if (!hostHeader) return false;
  const name = hostName(hostHeader);
  if (isLoopbackName(name) || policy.allowedHosts.includes(name)) return true;
  return policy.wildcard && path === '/v1/ingest';
}

/**
 * Is this `Origin` (if any) one of ours? Server-side SDKs send no Origin; our own pages send
 * their own origin: a name that passes {@link hostAllowed}, on the port we listen on — so a
 * dev server on another localhost port cannot post here from its pages either.
 */
export function originAllowed(
  origin: string | undefined,
  policy: HostPolicy,
  port: number,
): boolean {
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' || Number(url.port || 80) !== port) return false;
    const name = url.hostname.toLowerCase();
    return isLoopbackName(name) || policy.allowedHosts.includes(name);
  } catch {
    return false;
  }
}

/**
 * The policy for a listener bound on `hosts`: a non-loopback bind address is an allowed `Host`
 * name itself, and binding a wildcard accepts any `Host` (the user opted in to LAN access).
 */
export function hostPolicyFor(
  hosts: readonly string[],
  allowedHosts: readonly string[] = [],
): HostPolicy {
  return {
    allowedHosts: [
      ...allowedHosts,
      ...hosts.filter((h) => !isLoopbackName(h) && h !== '0.0.0.0' && h !== '::'),
    ].map((h) => h.toLowerCase()),
    wildcard: hosts.some((h) => h === '0.0.0.0' || h === '::'),
  };
}

/** The URL users see for a listener on `hosts`: `localhost` whenever a loopback or wildcard is bound. */
export function endpointFor(policy: HostPolicy, hosts: readonly string[], port: number): string {
  const host = policy.wildcard || hosts.some((h) => isLoopbackName(h)) ? 'localhost' : hosts[0]!;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
