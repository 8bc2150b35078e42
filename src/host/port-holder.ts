/**
 * Who holds a port we could not bind. When it is another MCPulse Devtools (the desktop app
 * already open, or a `serve` in a terminal) the user needs to hear that — which database it
 * serves, and its pid — rather than a bare EADDRINUSE: the fix is to use that one, not to
 * hunt for a process.
 */

import { lockOwnerPid } from '../store/instance-lock.js';

/** What answered on the port; `pid` from the lock file of the database it serves. */
export type PortHolder =
  | { kind: 'devtools'; version: string; dbPath: string; pid: number | null }
  | { kind: 'other'; detail: string };

/** Asks `GET /api/status` on loopback at `port`; anything but our own answer is "other". */
export async function identifyPortHolder(port: number, timeoutMs = 1500): Promise<PortHolder> {
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${port}/api/status`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { kind: 'other', detail: `it does not answer HTTP: ${code}` };
  }
  try {
    const body = (await res.json()) as { version?: unknown; dbPath?: unknown };
    if (res.ok && typeof body.version === 'string' && typeof body.dbPath === 'string')
      return {
        kind: 'devtools',
        version: body.version,
        dbPath: body.dbPath,
        pid: lockOwnerPid(body.dbPath),
      };
  } catch {
    // Not JSON: not us.
  }
  return { kind: 'other', detail: `it answers HTTP ${res.status} on /api/status` };
}

/** One sentence for a dialog: what holds `port`, and what to do about it. */
export function describePortHolder(port: number, holder: PortHolder): string {
  if (holder.kind === 'devtools')
    return (
      `Port ${port} is already used by another MCPulse Devtools ${holder.version}` +
      `${holder.pid ? ` (pid ${holder.pid})` : ''}, serving ${holder.dbPath}. Use that one (its window, or the terminal running \`serve\`), or ` +
      `quit it and start again; MCPULSE_DEVTOOLS_PORT=N picks another port.`
    );
  return (
    `Port ${port} is already used by another program (${holder.detail}). Stop it, or set ` +
    `MCPULSE_DEVTOOLS_PORT=N to use another port (and give your SDK's endpoint the same port).`
  );
}
