/**
 * The telemetry thread of a stdio proxy: everything but the relay itself. It receives copies of
 * the bytes the relay forwarded (stamped with when the relay saw them), splits them into lines,
 * observes the JSON-RPC and sends the payloads to the dashboard it found or started — so
 * parsing, hashing, measuring, HTTP and a self-started dashboard never run on the thread that
 * moves the client's bytes. See telemetry-thread.ts for the other side; the CLI's worker entry
 * (src/cli/commands/proxy-telemetry.ts) runs this with its way of finding the dashboard.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { LineSplitter } from './lines.js';
import { preciseNow, TrafficObserver } from './observer.js';
import { Redactor } from './content.js';
import { chooseKey } from './project-key.js';
import { MAX_AGE_MS, QUIET_MS, TelemetrySink } from './sink.js';
import type { TelemetryInit, TelemetryWorkerData, ToWorker } from './telemetry-thread.js';
import { NOTHING_LOST, RingReader, type Lost, type RingRecord } from './traffic-ring.js';

/** While traffic flows, how often the thread looks at the ring. */
const POLL_MS = 5;
/**
 * While traffic never pauses, observe at least this often: as often as the sink sends then, so
 * that a session without pauses meets one burst of our work every few seconds (observe, then
 * send at once: the sink's age counts from the relay), not a parse every second besides —
 * issue 18's 1,000 calls/s p99, docs/benchmarks-history.md. What is unobserved at exit is observed
 * before it is sent or handed off: five seconds of a flood take ~0.5 s, and the ring's half
 * mark drains a flood sooner.
 */
const MAX_LAG_MS = MAX_AGE_MS;
/** After this long without traffic, the thread sleeps until the relay writes again. */
const PARK_AFTER_MS = 100;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Finds (or starts) the dashboard and points the sink at it; returns what to stop at exit. */
export type ConnectDashboard = (
  init: TelemetryInit,
  sink: TelemetrySink,
) => Promise<{ stop(): Promise<void> } | undefined>;

/** Runs the telemetry thread's side (call it from a worker entry). */
export function runTelemetryWorker(connect: ConnectDashboard): void {
  const init = workerData as TelemetryWorkerData;

  const ring = new RingReader(init.ring);
  // When the relay last copied something: the ring's write position moving is the traffic.
  let written = ring.written;
  let writtenAt = preciseNow();
  const lastTraffic = (): number => {
    if (ring.written !== written) {
      written = ring.written;
      writtenAt = preciseNow();
    }
    return writtenAt;
  };
  const sink = new TelemetrySink({
    key: init.key,
    fallbackKey: init.fallbackKey,
    url: init.url,
    lastTraffic,
  });
  const observer = new TrafficObserver({
    sessionId: init.sessionId,
    transport: init.transport,
    clientName: init.clientName,
    emit: (p, at) => sink.add(p, at),
    content: sink,
    redactor: new Redactor(init.redact),
    bodies: init.content,
    onServerName: (name) => chooseKey(init, sink, name),
  });

  // V8's defaults, no run-time flag (one set after V8 started killed every session ~8 s in),
  // and the normal scheduling policy. Only the thread's nice value is raised — a plain
  // setpriority on this thread (Linux: pid 0 is the calling thread), so the relay, the client
  // and the server win a busy CPU from it: 19, or 10 when it serves a dashboard it started.
  const served = connect(init, sink);
  void served.then((started) => {
    if (process.platform !== 'linux') return;
    try {
      setPriority(0, started ? 10 : 19);
    } catch {
      // Not allowed here: the thread keeps the process's priority.
    }
  });

  /** One direction: its line splitter, and when the bytes of the line being read arrived. */
  function direction(onText: (text: string, at: number) => void) {
    let at = 0;
    const lines = new LineSplitter((line) => onText(line.toString('utf8'), at));
    return {
      push(record: RingRecord) {
        at = record.at;
        lines.push(record.bytes);
      },
      lost(how: Lost) {
        if (how !== 'none') lines.resync(how === 'mid-line');
      },
    };
  }
  const fromClient = direction((text, at) => observer.fromClient(text, '', at));
  const fromServer = direction((text, at) => observer.fromServer(text, '', at));

  const onRecord = (record: RingRecord): void => {
    if (record.lost !== NOTHING_LOST) {
      fromClient.lost(record.lost.client);
      fromServer.lost(record.lost.server);
      // Requests seen so far may have been answered in the lost bytes; later ones cannot be.
      if (record.lost.server !== 'none') observer.serverGap();
    }
    (record.direction === 'client' ? fromClient : fromServer).push(record);
  };
  /** Observes everything copied so far (the sink learns of the traffic from `lastTraffic`). */
  const drain = (): void => void ring.drain(onRecord);

  void (async () => {
    // Observing waits for a pause in the traffic, as sending does (TelemetrySink): work done in
    // a burst, even on idle CPU, competes with it for caches and wakeups. So: look every few
    // milliseconds (the relay never has to wake this thread), observe once nothing was written
    // for QUIET_MS, or when the oldest copy is MAX_LAG_MS old, or the ring is half full; sleep
    // on the ring when there is no traffic. The sink then sends on its own rules.
    let waitingSince: number | null = null;
    for (;;) {
      const now = preciseNow();
      const trafficAt = lastTraffic();
      if (ring.used === 0) {
        waitingSince = null;
        if (now - trafficAt < PARK_AFTER_MS) await sleep(POLL_MS);
        else await ring.wait();
        continue;
      }
      waitingSince ??= now;
      if (
        now - trafficAt >= QUIET_MS ||
        now - waitingSince >= MAX_LAG_MS ||
        ring.used * 2 >= ring.capacity
      ) {
        drain();
        waitingSince = null;
      }
      await sleep(POLL_MS);
    }
  })();

  parentPort!.on('message', (m: ToWorker) => {
    // Everything the relay copied before it sent this comes first.
    drain();
    switch (m.k) {
      case 'end':
        return observer.abandonAll(m.t, m.clean);
      case 'stop-now':
        return sink.stopNow(m.reason);
      case 'close':
        void (async () => {
          // A server that never named itself: the script's key, said as a named one would be.
          if (!init.key) chooseKey(init, sink, null);
          // Content still being redacted goes to the sink first (never unredacted to a spool).
          await observer.settled();
          const report = await sink.close(m.budget);
          await (await served)?.stop();
          parentPort!.postMessage({ k: 'closed', report, stats: observer.stats() });
        })();
    }
  });
}
