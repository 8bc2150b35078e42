/**
 * A telemetry thread that falls behind (here: starts 1.5 s late, with a 16 KB ring) while the
 * client keeps calling: the relay never waits for it — every answer arrives — the bytes it could
 * not copy are counted and told, calls whose answers fell in the gap are not recorded (never as
 * crashed), and the calls after the gap are recorded as usual.
 */
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  startStdioRelay,
  TelemetryThread,
  unobservedLine,
  type TelemetryInit,
} from '../../src/proxy/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { PY_SERVER } from './helpers.js';

let dashboard: TestServer;
beforeEach(async () => {
  dashboard = await startTestServer();
});
afterEach(async () => {
  await dashboard.close();
});

const line = (m: unknown) => JSON.stringify(m) + '\n';
const echo = (id: number, text: string) =>
  line({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });

it('relays everything while the thread is behind, and records only what it saw', async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let answers = 0;
  let pending = '';
  const answered: Array<() => void> = [];
  stdout.on('data', (c: Buffer) => {
    pending += c.toString('utf8');
    let nl: number;
    while ((nl = pending.indexOf('\n')) !== -1) {
      pending = pending.slice(nl + 1);
      answers++;
      answered.splice(0).forEach((f) => f());
    }
  });
  const until = async (n: number) => {
    while (answers < n) await new Promise<void>((r) => answered.push(r));
  };

  const init: TelemetryInit & { stallMs: number } = {
    sessionId: 's_000000000gap',
    transport: 'stdio',
    key: 'px_gap',
    fallbackKey: 'px_gap',
    content: true,
    redact: { keys: [], patterns: [] },
    url: dashboard.url,
    stallMs: 1500,
  };
  const telemetry = new TelemetryThread(
    new URL('./workers/stalled-telemetry.ts', import.meta.url),
    init,
    16 * 1024,
  );
  const relay = startStdioRelay({
    command: PY_SERVER[0]!,
    args: PY_SERVER.slice(1),
    stdin,
    stdout,
    stderr: new PassThrough(),
    tap: telemetry,
  });

  stdin.write(
    line({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gap' } },
    }),
  );
  await until(1);
  // ~80 KB each way while the thread cannot run: far more than its 16 KB ring holds.
  for (let i = 1; i <= 40; i++) stdin.write(echo(i, `early-${i}-` + 'x'.repeat(1000)));
  await until(41);
  // The ring is full until the thread, once it runs, reads it empty.
  expect(telemetry.backlogBytes).toBeGreaterThan(8 * 1024);
  await expect.poll(() => telemetry.backlogBytes, { timeout: 15_000, interval: 50 }).toBe(0);
  for (let i = 41; i <= 45; i++) stdin.write(echo(i, `late-${i}`));
  await until(46);
  stdin.end();
  const end = await relay.done;
  const result = await telemetry.close();

  expect(end.code).toBe(0);
  expect(answers).toBe(46);
  expect(result.skippedBytes).toBeGreaterThan(40_000);
  expect(unobservedLine(result)).toMatch(
    /^mcpulse-devtools proxy: \d+\.\d MB of traffic went unobserved while the telemetry thread was too far behind \(\d+ calls? in flight then not recorded\); the MCP session itself was not affected\n$/,
  );

  const { calls } = await dashboard.api('calls', { limit: 100 });
  expect(calls.length).toBe(result.report.sent.calls);
  expect(calls.length).toBeLessThan(45);
  expect(calls.every((c) => c.outcome === 'ok')).toBe(true);
  // The calls after the gap are all there; the ones whose answers were lost are counted.
  expect(result.report.sent.calls).toBeGreaterThanOrEqual(5);
  expect(result.stats!.unobserved).toBeGreaterThan(0);
  expect(result.stats!.calls + result.stats!.unobserved).toBeLessThanOrEqual(45);
  expect(result.report.dropped.calls).toBe(0);
}, 30_000);
