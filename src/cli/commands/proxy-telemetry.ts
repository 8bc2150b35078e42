/**
 * The worker entry of a stdio proxy's telemetry thread: src/proxy's worker side, finding (or
 * starting) the dashboard as the CLI does. Started by TelemetryThread; never run directly.
 */
import { runTelemetryWorker } from '../../proxy/telemetry-worker.js';
import { connectDashboard } from './proxy-dashboard.js';

runTelemetryWorker((init, sink) =>
  connectDashboard(
    { url: init.url, db: init.db, token: init.token, env: process.env, stderr: process.stderr },
    sink,
  ),
);
