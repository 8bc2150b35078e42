/**
 * Who holds a port we could not bind. When it is another MCPulse Devtools (the desktop app
 * already open, or a `serve` in a terminal) the user needs to hear that — which database it
 * serves, and its pid — rather than a bare EADDRINUSE: the fix is to use that one, not to
 * hunt for a process.
 */

import { TOKEN_HEADER } from '../shared/owner-token.js';
import { lockOwnerPid } from '../store/instance-lock.js';

/**
 * What answered on the port; `pid` from the lock file of the database it serves. A devtools
 * that does not take our token (another account's, or a `--token` of its own) says only its
 * version: `dbPath` and `pid` are null.
 */
export type PortHolder =
  | { kind: 'devtools'; version: string; dbPath: string | null; pid: number | null }
  | { kind: 'other'; detail: string };

/**
 * Asks `GET /api/status` on loopback at `port`, with our owner `token` if we have one;
 * anything but a devtools answer is "other".
 */
export async function identifyPortHolder(
  port: number,
  timeoutMs = 1500,
  token?: string,
): Promise<PortHolder> {
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${port}/api/status`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: token === undefined ? {} : { [TOKEN_HEADER]: token },
    });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { kind: 'other', detail: `it does not answer HTTP: ${code}` };
  }
  try {
    const body = (await res.json()) as {
      version?: unknown;
      dbPath?: unknown;
      authorised?: unknown;
    };
    if (res.ok && typeof body.version === 'string' && typeof body.dbPath === 'string')
      return {
        kind: 'devtools',
        version: body.version,
        dbPath: body.dbPath,
        pid: lockOwnerPid(body.dbPath),
      };
    if (res.ok && typeof body.version === 'string' && body.authorised === false)
      return { kind: 'devtools', version: body.version, dbPath: null, pid: null };
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
      `${holder.pid ? ` (pid ${holder.pid})` : ''}${holder.dbPath ? `, serving ${holder.dbPath}` : ' (one that does not take this account’s token)'}. Use that one (its window, or the terminal running \`serve\`), or ` +
      `quit it and start again; MCPULSE_DEVTOOLS_PORT=N picks another port.`
    );
  return (
    `Port ${port} is already used by another program (${holder.detail}). Stop it, or set ` +
    `MCPULSE_DEVTOOLS_PORT=N to use another port (and give your SDK's endpoint the same port).`
  );
}
