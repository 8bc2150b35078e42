/**
 * What a startup says about the SDK that sent it. Newer SDKs (PHP 0.1.6, `Version.php`) add the
 * SDK's name and version, the MCP SDK's version and the transport to the startup payload so
 * their rows can say which of them produced them. These are extra fields (the contract allows
 * any), read leniently: a value of the wrong type is left out, never an error.
 */

/** The SDK facts of one session; every field `null` when not sent. */
export interface SdkFacts {
  name: string | null;
  version: string | null;
  mcp_sdk_version: string | null;
  /** `stdio`, `http`, `sse` or `unknown`, as the SDK reports it. */
  transport: string | null;
}

const text = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.slice(0, 200) : null;

/**
 * The facts from a session's startups' extra fields, newest first; `null` when none says
 * anything. `sdk` may be a name (`"getmcpulse/mcpulse"`) or `{name, version}`.
 */
export function sdkFacts(extras: readonly (Record<string, unknown> | null)[]): SdkFacts | null {
  for (const extra of extras) {
    if (!extra) continue;
    const sdk = extra.sdk;
    const nested =
      sdk !== null && typeof sdk === 'object' && !Array.isArray(sdk)
        ? (sdk as Record<string, unknown>)
        : {};
    const facts: SdkFacts = {
      name: text(sdk) ?? text(nested.name) ?? text(extra.sdk_name),
      version: text(nested.version) ?? text(extra.sdk_version),
      mcp_sdk_version: text(extra.mcp_sdk_version) ?? text(extra.mcp_sdk),
      transport: text(extra.transport),
    };
    if (Object.values(facts).some((v) => v !== null)) return facts;
  }
  return null;
}
