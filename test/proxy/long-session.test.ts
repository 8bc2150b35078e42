/**
 * Sessions held open for more than a minute at a human pace — a call every few seconds, and
 * idle gaps of 15 to 18 s — through the real proxy, in stdio and HTTP mode, with the dashboard
 * up, down (nothing listens, so the proxy starts its own) and hanging (answers the probe, never
 * the ingest). The client must see every answer, and a stdio proxy must exit with the server's
 * code. This is the test that the run-time V8 flag (killed every stdio proxy ~8 s after start,
 * exit 133) would have failed; all six variants run at once so the suite pays ~70 s once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { connectClient, proxied, PY_SERVER, scratchDir, until } from './helpers.js';
import { startHttpFixture } from './servers/http-server.js';

type Dashboard = 'up' | 'down' | 'hanging';

/** Seconds from the session's start at which a call is made: gaps of 3–4 s, and of 15 and 18 s. */
const SCHEDULE_S = [0, 3, 6, 21, 24, 27, 45, 49, 53, 57, 61];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port nothing listens on (taken from the OS, then let go). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Answers the probe as a dashboard would, then never answers anything else. */
async function startHangingDashboard(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/api/status') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ version: 'x', dbPath: '/nowhere', endpoint: 'x' }));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Runs the schedule: each call's answer must echo its own text. Returns the texts seen. */
async function humanPace(client: Client, label: string): Promise<string[]> {
  const start = Date.now();
  const seen: string[] = [];
  for (const [i, s] of SCHEDULE_S.entries()) {
    const wait = start + s * 1000 - Date.now();
    if (wait > 0) await sleep(wait);
    const result = (await client.callTool({
      name: 'echo',
      arguments: { text: `${label} #${i}` },
    })) as { content: { type: string; text: string }[] };
    seen.push(result.content[0]!.text);
  }
  return seen;
}

const expected = (label: string) => SCHEDULE_S.map((_, i) => `${label} #${i}`);

describe('a session at a human pace for more than a minute', () => {
  let t: TestServer;
  let hanging: Awaited<ReturnType<typeof startHangingDashboard>>;
  let downUrl: string;
  const dbDir = scratchDir('mcpulse-long-');

  beforeAll(async () => {
    t = await startTestServer();
    hanging = await startHangingDashboard();
    downUrl = `http://127.0.0.1:${await freePort()}`;
  });
  afterAll(async () => {
    await t.close();
    hanging.server.closeAllConnections();
    hanging.server.close();
  });

  const urlOf = (d: Dashboard) => (d === 'up' ? t.url : d === 'down' ? downUrl : hanging.url);

  /** stdio: every answer seen, then `die` makes the server exit 3, and so must the proxy. */
  async function stdioVariant(d: Dashboard) {
    const label = `stdio-${d}`;
    const { client, transport } = await connectClient(
      proxied(PY_SERVER, urlOf(d), ['--key', `mp_live_long_${label}`, '--db', join(dbDir, d)]),
    );
    const seen = await humanPace(client, label);
    await client.callTool({ name: 'die', arguments: {} }).catch(() => null);
    const exit = await transport.exited;
    return { label, seen, exit, stderr: transport.stderr() };
  }

  /** HTTP: every answer seen over the proxy; SIGTERM ends it with 0. */
  async function httpVariant(d: Dashboard) {
    const label = `http-${d}`;
    const fixture = await startHttpFixture();
    const proxy = spawnCli([
      'proxy',
      '--http',
      '--target',
      fixture.url,
      '--listen',
      '0',
      '--url',
      urlOf(d),
      '--key',
      `mp_live_long_${label}`,
      '--db',
      join(dbDir, `http-${d}`),
    ]);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      proxy.once('close', (code, signal) => r({ code, signal })),
    );
    const line = await until(
      async () => proxy.err(),
      (err) => /relaying (\S+) →/.test(err),
      30_000,
    );
    const client = new Client({ name: 'long-http', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(/relaying (\S+) →/.exec(line)![1]!)),
    );
    const seen = await humanPace(client, label);
    await client.close();
    proxy.kill('SIGTERM');
    const exit = await exited;
    await fixture.close();
    return { label, seen, exit, stderr: proxy.err() };
  }

  it('stdio and HTTP × dashboard up, down, hanging: every answer, the server’s exit code', async () => {
    const runs = await Promise.all([
      ...(['up', 'down', 'hanging'] as const).map(stdioVariant),
      ...(['up', 'down', 'hanging'] as const).map(httpVariant),
    ]);
    for (const run of runs) {
      expect(run.seen, `${run.label}: ${run.stderr}`).toEqual(expected(run.label));
      const code = run.label.startsWith('stdio') ? 3 : 0;
      expect(run.exit, `${run.label}: ${run.stderr}`).toEqual({ code, signal: null });
      expect(run.stderr).not.toMatch(/Check failed|Trace\/breakpoint/);
    }
    // With the dashboard up, every call arrived, and the server's crash is the last one.
    const stdioCalls = await until(
      () => t.api('calls', { project: 'mp_live_long_stdio-up', limit: 100 }),
      (r) => r.calls.length >= SCHEDULE_S.length + 1,
    );
    expect(stdioCalls.calls.filter((c) => c.outcome === 'ok')).toHaveLength(SCHEDULE_S.length);
    expect(stdioCalls.calls.filter((c) => c.outcome === 'crashed')).toHaveLength(1);
    const httpCalls = await until(
      () => t.api('calls', { project: 'mp_live_long_http-up', limit: 100 }),
      (r) => r.calls.length >= SCHEDULE_S.length,
    );
    expect(httpCalls.calls.every((c) => c.outcome === 'ok')).toBe(true);
  }, 150_000);
});
