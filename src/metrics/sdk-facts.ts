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
  /** The MCP protocol version the session negotiated, when the startup says. */
  protocol_version: string | null;
  /**
   * The fields the SDK declared it compares across tools (PHP's `agree_declared`, or the
   * `agreements` declarations), `null` when none were declared.
   */
  declared_fields: string[] | null;
}

/**
 * Splits `name@version` — `getmcpulse/mcpulse@0.1.6`, `mcpulse-devtools-proxy@0.1.0`,
 * `@mcpulse/sdk@0.1.6` — at its last `@` after the first character, so a scoped npm name's own
 * `@` stays in the name. No version part: the whole text is the name.
 */
export function splitSdkName(value: string): { name: string; version: string | null } {
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return { name: value, version: null };
  return { name: value.slice(0, at), version: value.slice(at + 1) };
}

/** Field names from a declaration: `["a"]`, `[{field: "a", tools: […]}]` or `{a: […]}`. */
function declaredFields(value: unknown): string[] | null {
  const out: string[] = [];
  if (Array.isArray(value)) {
    for (const d of value) {
      const field =
        typeof d === 'string'
          ? d
          : d && typeof d === 'object'
            ? (d as { field?: unknown }).field
            : null;
      if (typeof field === 'string' && field !== '') out.push(field.slice(0, 200));
    }
  } else if (value && typeof value === 'object') {
    out.push(...Object.keys(value).map((k) => k.slice(0, 200)));
  }
  return out.length > 0 ? [...new Set(out)].slice(0, 100) : null;
}

/** A declared field and whether this session's verdicts ever checked it. */
export interface DeclaredField {
  field: string;
  checks: number;
  /** Declared, yet no verdict: the check never ran — what the SDK warns about. */
  never_checked: boolean;
}

/** Each declared field with how many verdicts the session has for it. */
export function declaredCoverage(
  declared: readonly string[] | null,
  verdicts: readonly { field: string }[],
): DeclaredField[] {
  return (declared ?? []).map((field) => {
    const checks = verdicts.filter((v) => v.field === field).length;
    return { field, checks, never_checked: checks === 0 };
  });
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
    // PHP 0.1.6 and the proxy send `name@version` in one string.
    const joined = text(sdk);
    const split = joined === null ? null : splitSdkName(joined);
    const facts: SdkFacts = {
      name: split?.name ?? text(nested.name) ?? text(extra.sdk_name),
      version: text(nested.version) ?? text(extra.sdk_version) ?? split?.version ?? null,
      mcp_sdk_version: text(extra.mcp_sdk_version) ?? text(extra.mcp_sdk),
      transport: text(extra.transport),
      protocol_version: text(extra.protocol_version) ?? text(extra.mcp_protocol_version),
      declared_fields: declaredFields(extra.agree_declared ?? extra.agreements),
    };
    if (Object.values(facts).some((v) => v !== null)) return facts;
  }
  return null;
}
