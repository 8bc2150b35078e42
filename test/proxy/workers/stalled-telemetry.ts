/**
 * A telemetry thread that is late to start: it blocks for `stallMs` (from its workerData) before
 * running the real worker, as a thread starved of CPU would be. Sends to the dashboard at the
 * init's `url`.
 */
import { workerData } from 'node:worker_threads';
import { runTelemetryWorker } from '../../../src/proxy/telemetry-worker.js';

const { stallMs } = workerData as { stallMs: number };
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, stallMs);
runTelemetryWorker(async (init, sink) => {
  sink.connect(init.url);
  return undefined;
});
