/**
 * When the proxy's telemetry is sent (TelemetrySink against a real dashboard): held while the
 * traffic flows, sent once it pauses, and still sent every few seconds (here shortened) or at
 * the high-water mark when it never pauses; everything held goes out at close.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callPayload, preciseNow, TelemetrySink, type SinkOptions } from '../../src/proxy/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let dashboard: TestServer;
beforeEach(async () => {
  dashboard = await startTestServer();
});
afterEach(async () => {
  await dashboard.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let n = 0;
const call = () =>
  callPayload({
    sessionId: 's_00000000pace',
    clientName: 'pacing-test',
    params: { name: 'ping', arguments: { i: n++ } },
    startedAt: new Date().toISOString(),
    durationMs: 1,
    end: { kind: 'result', result: { content: [{ type: 'text', text: 'ok' }] } },
  });

async function stored(): Promise<number> {
  return (await dashboard.api('status')).counts.calls;
}

/** Keeps telling the sink that traffic flows, every 10 ms, until stopped. */
function flowing(sink: TelemetrySink): () => void {
  sink.traffic();
  const timer = setInterval(() => sink.traffic(), 10);
  return () => clearInterval(timer);
}

function connected(options: Partial<SinkOptions> = {}): TelemetrySink {
  const sink = new TelemetrySink({ key: 'px_pacing', ...options });
  sink.connect(dashboard.url);
  return sink;
}

describe('the proxy sends telemetry in the pauses of the traffic', () => {
  it('holds calls while traffic flows and sends them once it pauses', async () => {
    const sink = connected({ quietMs: 50, maxAgeMs: 60_000 });
    const stop = flowing(sink);
    for (let i = 0; i < 20; i++) {
      sink.add(call());
      await sleep(15);
    }
    expect(await stored()).toBe(0);
    stop();
    await expect.poll(stored, { timeout: 3000 }).toBe(20);
    await sink.close();
  });

  it('asks when traffic last flowed at the moment it decides (no traffic() call needed)', async () => {
    // The telemetry thread runs its timers late when starved; it answers from the ring instead.
    let flowing = true;
    const sink = connected({
      quietMs: 50,
      maxAgeMs: 60_000,
      lastTraffic: () => (flowing ? preciseNow() : 0),
    });
    for (let i = 0; i < 10; i++) sink.add(call());
    await sleep(300);
    expect(await stored()).toBe(0);
    flowing = false;
    await expect.poll(stored, { timeout: 3000 }).toBe(10);
    await sink.close();
  });

  it('still sends when the traffic never pauses: at the maximum age', async () => {
    const sink = connected({ quietMs: 50, maxAgeMs: 300 });
    const stop = flowing(sink);
    const t0 = performance.now();
    sink.add(call());
    sink.add(call());
    await expect.poll(stored, { timeout: 3000, interval: 20 }).toBe(2);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    stop();
    await sink.close();
  });

  it('counts the age from when the traffic was relayed, not from when it was observed', async () => {
    // The telemetry thread observes a session without pauses every MAX_AGE_MS: what it hands
    // over then is already that old, and goes out in the same burst.
    const sink = connected({ quietMs: 50, maxAgeMs: 5_000 });
    const stop = flowing(sink);
    const t0 = performance.now();
    sink.add(call(), preciseNow() - 5_000);
    sink.add(call());
    await expect.poll(stored, { timeout: 2000, interval: 20 }).toBe(2);
    expect(performance.now() - t0).toBeLessThan(1_500);
    stop();
    await sink.close();
  });

  it('still sends when the traffic never pauses: at the high-water mark', async () => {
    const sink = connected({ quietMs: 50, maxAgeMs: 60_000, highWater: 600 });
    const stop = flowing(sink);
    for (let i = 0; i < 599; i++) sink.add(call());
    await sleep(150);
    expect(await stored()).toBe(0);
    sink.add(call());
    await expect.poll(stored, { timeout: 3000 }).toBe(600);
    stop();
    await sink.close();
  });

  it('sends everything held at close, pause or not, and reports it sent', async () => {
    const sink = connected({ quietMs: 50, maxAgeMs: 60_000 });
    const stop = flowing(sink);
    for (let i = 0; i < 1234; i++) sink.add(call());
    const report = await sink.close();
    stop();
    expect(report.sent.calls).toBe(1234);
    expect(report.dropped.calls).toBe(0);
    expect(await stored()).toBe(1234);
  });

  it('holds what arrives before the dashboard is known, and sends it after a pause', async () => {
    const sink = new TelemetrySink({ key: 'px_pacing', quietMs: 50, maxAgeMs: 60_000 });
    for (let i = 0; i < 5; i++) sink.add(call());
    await sleep(100);
    sink.connect(dashboard.url);
    await expect.poll(stored, { timeout: 3000 }).toBe(5);
    await sink.close();
  });
});
