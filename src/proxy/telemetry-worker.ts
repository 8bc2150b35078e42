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
import { TrafficObserver } from './observer.js';
import { TelemetrySink } from './sink.js';
import type { TelemetryInit, ToWorker } from './telemetry-thread.js';

/** Finds (or starts) the dashboard and points the sink at it; returns what to stop at exit. */
export type ConnectDashboard = (
  init: TelemetryInit,
  sink: TelemetrySink,
) => Promise<{ stop(): Promise<void> } | undefined>;

/** Runs the telemetry thread's side (call it from a worker entry). */
export function runTelemetryWorker(connect: ConnectDashboard): void {
  const init = workerData as TelemetryInit;

  // On Linux a nice value belongs to a thread, and pid 0 is the calling thread: this thread gives
  // way to the relay when the machine is busy, and the relay keeps its priority. 10, not 19: it
  // must still keep up well enough to flush before exit (the sink keeps sending on exit while the
  // dashboard makes progress). Measured in docs/benchmarks.md. (Elsewhere pid 0 is the whole
  // process, which must not be slowed down, so this is Linux only.)
  if (process.platform === 'linux') {
    try {
      setPriority(0, 10);
    } catch {
      // Not allowed here: telemetry simply competes as an equal.
    }
  }
  const sink = new TelemetrySink({ key: init.key });
  const observer = new TrafficObserver({
    sessionId: init.sessionId,
    transport: init.transport,
    clientName: init.clientName,
    emit: (p) => sink.add(p),
  });

  const served = connect(init, sink);

  /** One direction: its line splitter, and when the bytes of the line being read arrived. */
  function direction(onText: (text: string, at: number) => void) {
    let at = 0;
    const lines = new LineSplitter((line) => onText(line.toString('utf8'), at));
    return (bytes: Uint8Array, seen: number) => {
      at = seen;
      lines.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    };
  }
  const fromClient = direction((text, at) => observer.fromClient(text, '', at));
  const fromServer = direction((text, at) => observer.fromServer(text, '', at));

  parentPort!.on('message', (m: ToWorker) => {
    switch (m.k) {
      case 'chunks':
        for (const c of m.chunks) (c.k === 'c' ? fromClient : fromServer)(c.b, c.t);
        return;
      case 'end':
        return observer.abandonAll(m.t);
      case 'close':
        void (async () => {
          const report = await sink.close(m.budget);
          await (await served)?.stop();
          parentPort!.postMessage({ k: 'closed', report, stats: observer.stats() });
        })();
    }
  });
}
