/**
 * The demo's proxied scenario: the demo server as a real stdio process behind the real
 * `mcpulse-devtools proxy`, driven by a real SDK client — so a first run of `demo` shows what
 * the proxy captures (every message, the arguments and error texts of each call), not only the
 * counts an SDK sends. It has its own project key, so the SDK scenarios' figures stay as they are.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { TOKEN_ENV } from '../shared/owner-token.js';

/** The proxied scenario's project key (its first 12 characters, `px_demo-prox`, name it). */
export const PROXIED_DEMO_KEY = 'px_demo-proxied';

/** The calls a model makes: first tries that fail with a message, then the fixes. */
const STEPS: { tool: string; args: Record<string, unknown> }[] = [
  { tool: 'search_issues', args: { query: 'login' } },
  // Validation fails with the SDK's message, then the id in the right form.
  { tool: 'get_issue', args: { id: 42 } },
  { tool: 'get_issue', args: { id: 'ISS-42' } },
  // A tool error with its text, fixed on the next try.
  { tool: 'run_query', args: { sql: 'SELEC count(*) FROM issues' } },
  { tool: 'run_query', args: { sql: 'SELECT count(*) FROM issues' } },
  { tool: 'read_activity', args: { issue: 'ISS-42' } },
];

// From source (tests, `tsx`), the CLI and the server are .ts files run through tsx.
const FROM_SOURCE = extname(fileURLToPath(import.meta.url)) === '.ts';
const script = (relative: string): string[] => {
  const url = new URL(relative, import.meta.url);
  const path = fileURLToPath(FROM_SOURCE ? url.href.replace(/\.js$/, '.ts') : url);
  return FROM_SOURCE ? ['--import', 'tsx', path] : [path];
};

/**
 * Runs the proxied scenario against `endpoint`; resolves to the number of calls made. `token`
 * is the dashboard's owner token, which the proxy's content posts need: it goes in the proxy's
 * environment, never its command line (which other accounts can read in `ps`).
 */
export async function runProxiedDemo(options: {
  endpoint: string;
  fast?: boolean;
  token?: string;
}): Promise<{ calls: number }> {
  const server = [
    process.execPath,
    ...script('./stdio-server.js'),
    ...(options.fast ? ['--fast'] : []),
  ];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      ...script('../cli/main.js'),
      'proxy',
      '--url',
      options.endpoint,
      '--key',
      PROXIED_DEMO_KEY,
      '--',
      ...server,
    ],
    ...(options.token === undefined
      ? {}
      : { env: { ...getDefaultEnvironment(), [TOKEN_ENV]: options.token } }),
    // The proxy's own lines (if any) are for a terminal running it, not the demo's output.
    stderr: 'ignore',
  });
  const client = new Client({ name: 'claude-code', version: '2.0.14' });
  await client.connect(transport);
  await client.listTools();
  let calls = 0;
  for (const step of STEPS) {
    if (!options.fast) await new Promise((r) => setTimeout(r, 150 + Math.random() * 250));
    // A failing call is part of the story; the client sees its error either way.
    await client.callTool({ name: step.tool, arguments: step.args }).catch(() => null);
    calls++;
  }
  await client.close();
  return { calls };
}
