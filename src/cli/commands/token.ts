/**
 * `mcpulse-devtools token`: prints the link that opens the dashboard with the owner token — for
 * a browser that lost its cookie, or a terminal whose `serve` output scrolled away.
 */
import { defaultPort } from '../../host/paths.js';
import { serverToken, TokenFileError } from '../../host/token.js';
import { dashboardLink } from '../../shared/owner-token.js';
import { parseFlags, parsePort } from '../flags.js';
import type { Command } from '../io.js';
import { prog } from '../invocation.js';

const USAGE = `usage: ${prog()} token [--port N]

Prints the dashboard's link with the owner token (http://localhost:PORT/?token=…). Opening it
once lets that browser in; the token leaves the address bar at once. The token is
$MCPULSE_DEVTOOLS_TOKEN if set, else the one in ~/.mcpulse-devtools/token (made if missing).

  --port N   the dashboard's port (default 7857, or $MCPULSE_DEVTOOLS_PORT)
`;

export const command: Command = {
  summary: "print the dashboard's link with the owner token (open it in your browser)",
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    const port = parsePort(values.port, defaultPort(io.env));
    let token: string;
    try {
      token = serverToken(undefined, io.env);
    } catch (error) {
      if (!(error instanceof TokenFileError)) throw error;
      io.stderr.write(`mcpulse-devtools: ${error.message}\n`);
      return 1;
    }
    io.stdout.write(`${dashboardLink(`http://localhost:${port}`, token)}\n`);
    return 0;
  },
};
