/**
 * A long session through the proxy, as a person drives one: the real TypeScript SDK `Client`,
 * the real `@modelcontextprotocol/server-everything`, stdio and Streamable HTTP at once, for
 * `--minutes` (10 by default). Calls come every 2–5 s, with an idle gap of 10–20 s each minute;
 * tools, resources and prompts are mixed. Afterwards: every answer was right, the stdio proxy
 * exited 0 with the server, the HTTP proxy 0 on SIGTERM, and the dashboard holds every call and
 * every message. Not a CI test (docs/proxy.md records its runs).
 *
 *   node --import tsx bench/proxy/ten-minutes.ts [--minutes 10]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { getRemote } from '../../src/api/remote.js';
import { BENCH_TOKEN, CLI, ensureBuilt, ROOT, spawnServer } from '../ingest/util.js';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' } } });
const MINUTES = Number(values.minutes);
const EVERYTHING = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const between = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** One human-paced session; returns how many calls were made and any wrong answer. */
async function drive(client: Client, label: string) {
  const end = Date.now() + MINUTES * 60_000;
  let calls = 0;
  let other = 0;
  const wrong: string[] = [];
  let nextGap = Date.now() + 60_000;
  while (Date.now() < end) {
    const i = calls + other;
    const pick = i % 5;
    try {
      if (pick === 3) {
        await client.listResources();
        other++;
      } else if (pick === 4) {
        await client.listPrompts();
        other++;
      } else if (pick === 1) {
        const r = (await client.callTool({ name: 'get-sum', arguments: { a: i, b: 1 } })) as {
          content: { text: string }[];
        };
        calls++;
        if (!r.content[0]!.text.includes(String(i + 1))) wrong.push(`${label} sum ${i}`);
      } else {
        const text = `${label} ${i}`;
        const r = (await client.callTool({ name: 'echo', arguments: { message: text } })) as {
          content: { text: string }[];
        };
        calls++;
        if (!r.content[0]!.text.includes(text)) wrong.push(`${label} echo ${i}`);
      }
    } catch (error) {
      wrong.push(`${label} #${i}: ${(error as Error).message}`);
    }
    if (Date.now() > nextGap) {
      await sleep(between(10_000, 20_000));
      nextGap = Date.now() + 60_000;
    } else await sleep(between(2000, 5000));
  }
  return { calls, other, wrong };
}

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'mcpulse-ten-minutes-'));
const dashboard = await spawnServer(
  CLI,
  ['serve', '--port', '0', '--db', join(dir, 'devtools.db')],
  [],
  /dashboard\s+(http:\/\/\S+)/,
);
const started = new Date().toISOString();
const load0 = loadavg();

// stdio: the client spawns the proxy, which spawns the server.
const stdio = new StdioClientTransport({
  command: process.execPath,
  args: [CLI, 'proxy', '--url', dashboard.url, '--', process.execPath, EVERYTHING, 'stdio'],
  stderr: 'pipe',
});
let stdioErr = '';
stdio.stderr?.on('data', (c: Buffer) => (stdioErr += c.toString()));
const stdioClient = new Client({ name: 'ten-minutes-stdio', version: '1.0.0' });
await stdioClient.connect(stdio);

// HTTP: server-everything's Streamable HTTP mode, the proxy in front of it.
const port = await freePort();
const server = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
  env: { ...process.env, PORT: String(port) },
  stdio: ['ignore', 'ignore', 'pipe'],
});
await new Promise<void>((resolve) =>
  server.stderr.on('data', (c: Buffer) => c.toString().includes('listening') && resolve()),
);
const proxy = spawn(
  process.execPath,
  [
    CLI,
    'proxy',
    '--http',
    '--target',
    `http://127.0.0.1:${port}/mcp`,
    '--listen',
    '0',
    '--url',
    dashboard.url,
  ],
  { stdio: ['ignore', 'ignore', 'pipe'] },
);
let httpErr = '';
const relayed = await new Promise<string>((resolve) =>
  proxy.stderr.on('data', (c: Buffer) => {
    httpErr += c.toString();
    const m = /relaying (\S+) →/.exec(httpErr);
    if (m) resolve(m[1]!);
  }),
);
const httpClient = new Client({ name: 'ten-minutes-http', version: '1.0.0' });
await httpClient.connect(new StreamableHTTPClientTransport(new URL(relayed)));

const [s, h] = await Promise.all([drive(stdioClient, 'stdio'), drive(httpClient, 'http')]);

await stdioClient.close();
await httpClient.close();
const proxyExit = new Promise<number | null>((r) => proxy.once('exit', (code) => r(code)));
proxy.kill('SIGTERM');
const httpCode = await proxyExit;
server.kill('SIGTERM');
await sleep(3000);

const projects = await getRemote(dashboard.url, 'projects', {}, { token: BENCH_TOKEN });
const stored: Record<string, { calls: number; messages: number }> = {};
for (const p of projects.projects) {
  const { calls } = await getRemote(
    dashboard.url,
    'calls',
    { project: p.id, limit: 10_000 },
    { token: BENCH_TOKEN },
  );
  let messages = 0;
  for (const session of new Set(calls.map((c) => c.session_id))) {
    const m = await getRemote(
      dashboard.url,
      'messages',
      { session, limit: 1 },
      { token: BENCH_TOKEN },
    );
    messages += m.total;
  }
  stored[p.key_prefix] = { calls: calls.length, messages };
}
await dashboard.stop();
console.log(
  JSON.stringify(
    {
      started,
      minutes: MINUTES,
      loadavg_start: load0,
      loadavg_end: loadavg(),
      stdio: { ...s, proxy_stderr: stdioErr.trim() },
      http: { ...h, proxy_exit: httpCode, proxy_stderr: httpErr.trim() },
      stored,
    },
    null,
    2,
  ),
);
