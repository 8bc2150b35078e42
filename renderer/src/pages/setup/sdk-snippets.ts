/**
 * How each SDK is pointed here. Every MCPulse SDK reads its endpoint from an `endpoint` option,
 * conventionally fed from `MCPULSE_ENDPOINT` (wire-format §1), so the environment is the one
 * instruction that works everywhere; the notes say what differs per language.
 */
export interface SdkGuide {
  id: string;
  label: string;
  /** Lines for the shell the author starts their MCP server from. */
  env: (endpoint: string) => string;
  /** Code that passes the endpoint explicitly, where the option is documented. */
  code?: (endpoint: string) => string;
  notes: string[];
}

const posixEnv = (endpoint: string): string =>
  `export MCPULSE_ENDPOINT=${endpoint}\nexport MCPULSE_KEY=mp_live_local   # any non-empty key; one key = one project here`;

const STARTUP_NOTE =
  'Tool lists (schema sizes, never-used tools) arrive in a `startup` payload; this SDK sends it when your code asks it to — call its startup/report function after registering tools.';

export const SDK_GUIDES: SdkGuide[] = [
  {
    id: 'typescript',
    label: 'TypeScript',
    env: posixEnv,
    notes: [
      'Sends a startup on every `initialize`, so two clients in one process show two startups in one session.',
      'Only TypeScript and Go report `bad_args` (validation failures before your handler runs).',
      'Hashes JSON `null` arguments as `null` (74234e98afe7); the other SDKs treat them as absent.',
    ],
  },
  {
    id: 'python',
    label: 'Python',
    env: posixEnv,
    code: (endpoint) =>
      `import os\nfrom mcpulse import watch\n\nwatch(mcp, key=os.environ["MCPULSE_KEY"], endpoint="${endpoint}")`,
    notes: [
      STARTUP_NOTE,
      'Hash trap: `json.dumps` escapes non-ASCII and writes `1.0` — check the Playground.',
    ],
  },
  {
    id: 'go',
    label: 'Go',
    env: posixEnv,
    notes: [
      'Sends its startup on the first `tools/list`.',
      'Omits zero fields (`is_empty`, `duration_ms`, `response_bytes`); the devtools accept that.',
      'Hash trap: `encoding/json` HTML-escapes `<>&` unless told not to.',
    ],
  },
  {
    id: 'java',
    label: 'Java / Kotlin',
    env: posixEnv,
    notes: [
      STARTUP_NOTE,
      'Timestamps carry up to 9 fraction digits; accepted as sent.',
      'Hash trap: doubles written as `1.0`.',
    ],
  },
  {
    id: 'dotnet',
    label: '.NET',
    env: (endpoint) =>
      `# PowerShell\n$env:MCPULSE_ENDPOINT = "${endpoint}"\n$env:MCPULSE_KEY = "mp_live_local"\n\n# bash\n${posixEnv(endpoint)}`,
    notes: [
      STARTUP_NOTE,
      'Sends `content-type: application/json; charset=utf-8` and 7-digit `+00:00` timestamps; both accepted.',
      'Hash trap: `System.Text.Json` escapes `<>&` and writes `1E+21`.',
    ],
  },
  {
    id: 'rust',
    label: 'Rust',
    env: posixEnv,
    notes: [
      STARTUP_NOTE,
      'Hash trap: `serde_json` writes `1e21` in full and sorts keys by UTF-8 bytes.',
    ],
  },
  {
    id: 'ruby',
    label: 'Ruby',
    env: posixEnv,
    notes: [STARTUP_NOTE, 'Hash trap: `JSON.generate` keeps insertion order and writes `1.0`.'],
  },
  {
    id: 'php',
    label: 'PHP',
    env: posixEnv,
    notes: [
      STARTUP_NOTE,
      'Newer versions add fields (`sdk`, `transport`, `schema_hash`) and an `agreement` payload; extra fields are kept, unknown payload types show in the Ingest log.',
      'Hash trap: `json_encode` escapes `/` and all non-ASCII unless flagged.',
    ],
  },
  {
    id: 'swift',
    label: 'Swift',
    env: posixEnv,
    notes: [STARTUP_NOTE, 'Hash trap: `JSONSerialization` may write `true` as `1`.'],
  },
];

/** A request anyone can paste to check the listener without an SDK. */
export function curlSample(endpoint: string): string {
  const now = new Date().toISOString();
  const body = JSON.stringify({
    batch: [
      {
        v: 1,
        type: 'call',
        session_id: 's_000000c0ffee',
        client_name: 'curl',
        tool_name: 'hello_tool',
        started_at: now,
        duration_ms: 42,
        outcome: 'ok',
        response_bytes: 17,
        is_empty: false,
        args_hash: '44136fa355b3',
      },
    ],
  });
  return `curl -i ${endpoint}/v1/ingest \\\n  -H 'authorization: Bearer mp_live_local' \\\n  -H 'content-type: application/json' \\\n  -d '${body}'`;
}
