/**
 * The demo server over stdio, as a real server process: what the demo's proxied scenario puts
 * behind `mcpulse-devtools proxy` (proxied.ts). `node stdio-server.js [--fast]`.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createDemoServer } from './server.js';

const fast = process.argv.includes('--fast');
await createDemoServer({ slowMs: fast ? 150 : 2400 }).connect(new StdioServerTransport());
