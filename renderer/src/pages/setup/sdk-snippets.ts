/**
 * How each MCPulse SDK is pointed here: the one source of truth for the Setup page, README's
 * "Point your SDK here" and docs/setup.md (test/docs/setup-docs.test.ts fails when they part).
 *
 * Facts only, each read from the SDK's public source (repository and file named): the option
 * that sets the endpoint, the option that sets the key, and which environment variables the
 * SDK reads. None of the public SDKs reads one — not `MCPULSE_ENDPOINT`, not `MCPULSE_KEY` —
 * so the code below reads the variables itself and passes both options explicitly. Python,
 * Rust and Swift have no public source: their snippets are the product's published ones and
 * say that the endpoint option's name could not be checked.
 *
 * Plain TypeScript (no React), so the docs test and the docs writer can import it; the markdown
 * README and docs/setup.md carry is rendered from it by `./setup-markdown.ts`.
 */

/** Where one SDK's setup facts come from. */
export interface SetupSource {
  repo: string;
  /** The file that defines the options. */
  path: string;
}

/** One SDK's setup. */
export interface SdkSetup {
  id: string;
  label: string;
  /** The package as installed, and the version the facts were read from. */
  packageName: string;
  version: string;
  /** The install command, and where the package is published (or how to get it if not). */
  install: string;
  installNote: string;
  /** `null` when the SDK's source is not public. */
  source: SetupSource | null;
  /** The option that sets the endpoint, exactly as the SDK names it (unverified without source). */
  endpointOption: string;
  keyOption: string;
  /** Which environment variables the SDK itself reads. */
  envRead: string;
  /** The code that sets endpoint and key; `{endpoint}` is replaced by the real URL. */
  code: string;
  /** The code's language, for highlighting in markdown. */
  lang: string;
  /** When this SDK posts, which is what "waiting" depends on. */
  flush: string;
  notes: string[];
}

const NO_ENV = 'none — the SDK reads no environment variable; pass both options yourself';
const TIMER_FLUSH = 'every 5 s or at 30 payloads, and a final flush on exit';

/** Every SDK the Setup page lists, in its tab order. */
export const SDK_SETUPS: readonly SdkSetup[] = [
  {
    id: 'typescript',
    label: 'TypeScript',
    packageName: '@mcpulse/sdk',
    version: '0.1.6',
    install: 'npm install ./mcpulse-sdk-0.1.6.tgz',
    installNote:
      'Not on the npm registry reachable here (`npm view @mcpulse/sdk` → E404). Build it from its source: `git clone https://github.com/getmcpulse/mcpulse-sdk && cd mcpulse-sdk && npm ci && npm run build && npm pack` gives `mcpulse-sdk-0.1.6.tgz` (the package has no `prepare` script, so `npm install github:getmcpulse/mcpulse-sdk` installs it without its built `dist/`). Notes read from 0.1.6.',
    source: { repo: 'getmcpulse/mcpulse-sdk', path: 'src/options.ts' },
    endpointOption: 'endpoint',
    keyOption: 'key',
    envRead: NO_ENV,
    lang: 'ts',
    code: `import { watch } from "@mcpulse/sdk";

watch(server, {
  key: process.env.MCPULSE_KEY ?? "",
  endpoint: "{endpoint}",
});`,
    flush: TIMER_FLUSH,
    notes: [
      'The `endpoint` option is in `WatchOptions` even though the newest README no longer lists it.',
      'Sends a startup on every `initialize`; hashes `null` arguments as `null` (the other SDKs as `{}`).',
      'A client that connects, lists the tools and leaves sends a startup and no calls: the Sessions page lists it with “no tool calls”; nothing was lost.',
      'What is lost: only a process killed before its exit flush (SIGKILL, a crash) — the last ≤5 s of calls. A last request of exactly 30 payloads followed by silence is flagged on the session page as “last batch probably lost”.',
    ],
  },
  {
    id: 'python',
    label: 'Python',
    packageName: 'mcpulse-sdk',
    version: 'not public',
    install: 'pip install mcpulse-sdk',
    installNote:
      'No public source; the package name is the product’s published one and could not be checked here.',
    source: null,
    endpointOption: 'endpoint (unverified)',
    keyOption: 'key',
    envRead: 'unknown — no public source',
    lang: 'python',
    code: `import os
from mcpulse import watch

watch(mcp, key=os.environ.get("MCPULSE_KEY", ""), endpoint="{endpoint}")`,
    flush: 'unknown — no public source (the other SDKs: every 5 s or at 30 payloads)',
    notes: [
      'No public source: the published snippet shows only `key`. `endpoint` is the name every public SDK uses; if nothing arrives, check the package’s own docs for it.',
    ],
  },
  {
    id: 'go',
    label: 'Go',
    packageName: 'github.com/getmcpulse/mcpulse-go',
    version: '44699b5 (untagged)',
    install: 'go get github.com/getmcpulse/mcpulse-go@44699b5',
    installNote:
      'A Go module, fetched from GitHub through the Go module proxy. It has no tagged release: pin the commit the notes were read from (44699b5).',
    source: { repo: 'getmcpulse/mcpulse-go', path: 'options.go' },
    endpointOption: 'Endpoint',
    keyOption: 'Key',
    envRead: NO_ENV,
    lang: 'go',
    code: `mcpulse.Watch(server, mcpulse.Options{
    Key:      os.Getenv("MCPULSE_KEY"),
    Endpoint: "{endpoint}",
})
defer mcpulse.FlushAll()

// Wrap every handler, or bad arguments read as tool_error and a crash is guessed:
mcp.AddTool(server, tool, mcpulse.WrapTool(handler))`,
    flush:
      'every 5 s or at 30 payloads; on exit only through `FlushAll`, which SIGINT/SIGTERM call for you and which can return before the last batch is posted',
    notes: [
      '`defer mcpulse.FlushAll()` can return before the last batch is posted: it waits on a lock the sender goroutine has not taken yet. A server that exits within 5 s of its last call loses that batch — keep it running one flush interval (5 s) after the last call.',
      '`mcpulse.WrapTool(handler)` around each tool is what tells `bad_args` from `tool_error` and `crashed` (watch.go): without it, arguments the Go MCP SDK rejects arrive as `tool_error`, because its validation failure and a handler error are the same result from outside. Wrap every tool — the SDK turns the distinction on as soon as one is wrapped.',
      'A process that lives under 5 s and exits without a signal sends nothing at all: the first timer flush never came, and `FlushAll` may return first. The dashboard then shows nothing — not a session, not a refusal.',
      'Sends its startup on the first `tools/list`; omits zero fields (`is_empty`, `duration_ms`, `response_bytes`), which are accepted, and an export writes them back omitted, byte for byte. A Go session with a startup and no calls is flagged “last batch probably lost”.',
    ],
  },
  {
    id: 'java',
    label: 'Java / Kotlin',
    packageName: 'com.getmcpulse:mcpulse-kotlin',
    version: '0.1.0',
    install: 'implementation("com.getmcpulse:mcpulse-kotlin:0.1.0")',
    installNote:
      'Gradle coordinates from its build file; whether a Maven repository serves them could not be checked here — otherwise build it from github.com/getmcpulse/mcpulse-kotlin (`./gradlew publishToMavenLocal`). Notes read from 0.1.0.',
    source: { repo: 'getmcpulse/mcpulse-kotlin', path: 'src/main/kotlin/com/mcpulse/MCPulse.kt' },
    endpointOption: 'endpoint',
    keyOption: 'key',
    envRead: NO_ENV,
    lang: 'kotlin',
    code: `import com.mcpulse.MCPulse
import com.mcpulse.Options

MCPulse.configure(Options(key = System.getenv("MCPULSE_KEY") ?: "", endpoint = "{endpoint}"))

// From Java (Options has no @JvmOverloads, so pass all four):
// MCPulse.configure(new Options(System.getenv("MCPULSE_KEY"), "{endpoint}", true, false));`,
    flush: TIMER_FLUSH,
    notes: [
      'The source’s package is `com.mcpulse` (its README imports `com.getmcpulse`).',
      'Wraps the handler: `MCPulse.record(name, arguments, clientName) { … }` around each tool call; report tools with `MCPulse.recordStartup(…)`.',
    ],
  },
  {
    id: 'dotnet',
    label: '.NET',
    packageName: 'MCPulse',
    version: '0.1.0',
    install: 'dotnet add package MCPulse',
    installNote:
      'The NuGet package id from its project file; if the feed you use does not have it, build it from github.com/getmcpulse/mcpulse-dotnet (`dotnet pack`) and add the local folder as a source. Notes read from 0.1.0.',
    source: { repo: 'getmcpulse/mcpulse-dotnet', path: 'src/MCPulse/Options.cs' },
    endpointOption: 'Endpoint',
    keyOption: 'Key',
    envRead: NO_ENV,
    lang: 'csharp',
    code: `McPulse.Configure(new McPulseOptions
{
    Key = Environment.GetEnvironmentVariable("MCPULSE_KEY") ?? "",
    Endpoint = "{endpoint}",
});`,
    flush: TIMER_FLUSH,
    notes: [
      'Wraps the handler: `McPulse.RecordAsync(toolName, arguments, clientName, invoke)`; report tools with `McPulse.RecordStartup(…)`.',
    ],
  },
  {
    id: 'rust',
    label: 'Rust',
    packageName: 'mcpulse',
    version: 'not public',
    install: 'cargo add mcpulse',
    installNote: 'No public source; the crate name is the product’s published one.',
    source: null,
    endpointOption: 'unknown',
    keyOption: 'Options::new(key)',
    envRead: 'unknown — no public source',
    lang: 'rust',
    code: `use mcpulse::{McPulse, Options};

// No public source: the published snippet sets only the key; how to set the
// endpoint ({endpoint}) is not documented publicly.
let mcpulse = McPulse::new(Options::new(&std::env::var("MCPULSE_KEY").unwrap_or_default()));`,
    flush: 'unknown — no public source',
    notes: [
      'No public source: how to set its endpoint could not be checked here — see the package’s own documentation, and watch the Connection panel.',
    ],
  },
  {
    id: 'ruby',
    label: 'Ruby',
    packageName: 'mcpulse',
    version: '0.1.0',
    install: 'bundle add mcpulse',
    installNote:
      'The gem name from `mcpulse.gemspec`; or from source: `gem "mcpulse", git: "https://github.com/getmcpulse/mcpulse-ruby"`. Notes read from 0.1.0.',
    source: { repo: 'getmcpulse/mcpulse-ruby', path: 'lib/mcpulse/options.rb' },
    endpointOption: 'endpoint:',
    keyOption: 'key:',
    envRead: NO_ENV,
    lang: 'ruby',
    code: `require "mcpulse"

MCPulse.configure(key: ENV.fetch("MCPULSE_KEY", ""), endpoint: "{endpoint}")`,
    flush: 'every 5 s or at 30 payloads, and at exit (an `at_exit` hook)',
    notes: [
      'Wraps the handler: `MCPulse.record(name, arguments, client_name: …) { … }`; report tools with `MCPulse.record_startup(…)`.',
    ],
  },
  {
    id: 'php',
    label: 'PHP',
    packageName: 'mcpulse/mcpulse',
    version: '0.1.6',
    install: 'composer require mcpulse/mcpulse',
    installNote:
      'The Composer name in its composer.json (its startups call it `getmcpulse/mcpulse`); no dependencies beyond ext-json. Notes read from 0.1.6.',
    source: { repo: 'getmcpulse/mcpulse-php', path: 'src/Options.php' },
    endpointOption: 'endpoint (second constructor argument)',
    keyOption: 'key (first)',
    envRead: NO_ENV,
    lang: 'php',
    code: `use MCPulse\\MCPulse;
use MCPulse\\Options;

MCPulse::configure(new Options(getenv('MCPULSE_KEY') ?: '', '{endpoint}'));`,
    flush:
      'at 30 payloads and at shutdown (`register_shutdown_function`) only — PHP has no timer, so a stdio server’s calls arrive when it exits, or 30 at a time',
    notes: [
      'Nothing is lost by waiting: a stdio server that never reaches 30 payloads posts everything at exit, and the Setup page stays on “waiting” until then. Call `MCPulse::flushAll()` on your own schedule (after each call, or on a timer in Swoole/RoadRunner) to see calls as they happen.',
      'Hashes what your MCP library decoded: with `json_decode(…, true)`, `{}` arrives as `[]` and hashes as `[]` (mode “assoc” in the Playground and `hash`). `Hashing::argsHashRaw` on the raw bytes (mode “raw”) agrees with the other SDKs.',
      '`bad_args` is never reported (validation happens before `record`). Startups carry `sdk`, `transport`, per-tool fingerprints and declared agreement fields; the session page shows them, and calls out a declared field that never produced a verdict.',
    ],
  },
  {
    id: 'swift',
    label: 'Swift',
    packageName: 'mcpulse-swift',
    version: 'not public',
    install: '.package(url: "https://github.com/getmcpulse/mcpulse-swift.git", from: "0.1.0")',
    installNote: 'No public source; the package URL is the product’s published one.',
    source: null,
    endpointOption: 'unknown',
    keyOption: 'Options(key:)',
    envRead: 'unknown — no public source',
    lang: 'swift',
    code: `import MCPulse

// No public source: the published snippet sets only the key; how to set the
// endpoint ({endpoint}) is not documented publicly.
let mcpulse = MCPulse(options: Options(key: ProcessInfo.processInfo.environment["MCPULSE_KEY"] ?? ""))`,
    flush: 'unknown — no public source',
    notes: [
      'No public source: how to set its endpoint could not be checked here — see the package’s own documentation, and watch the Connection panel.',
    ],
  },
];

/** One SDK's code with the real endpoint in it. */
export function setupCode(setup: SdkSetup, endpoint: string): string {
  return setup.code.replaceAll('{endpoint}', endpoint);
}

/** What to check while nothing has arrived, in order of how often it is the cause. */
export const WAITING_CHECKS: readonly string[] = [
  'The endpoint is set in code, through the SDK’s own option: no SDK reads `MCPULSE_ENDPOINT`, so without the option every SDK sends to the hosted API and nothing arrives here.',
  'The key is non-empty: an empty key turns every SDK off, silently. Any non-empty key works here.',
  'Give it one flush: SDKs post every 5 s or at 30 payloads (PHP only at 30 or at shutdown).',
  'Go: `defer mcpulse.FlushAll()` can return before the last batch is posted — a server that exits within 5 s of its last call loses it.',
  'The endpoint is the base URL (`http://localhost:7857`), never the route: an option ending in `/v1/ingest` makes the SDK post to `/v1/ingest/v1/ingest`, which is refused (404) — the Setup page shows the last such request and what to change.',
  'Refused requests (a wrong path or method, a missing key, a malformed batch) are on the Ingest log page, with the reason and what to change.',
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
