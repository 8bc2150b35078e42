/**
 * A TypeScript SDK server (`McpServer` over stdio) for the proxy tests. With
 * PROXY_TEST_RECORD_DIR set, every byte it reads is appended to in.bin and every byte it writes
 * to out.bin — the server's side of the byte-identity check.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildFixtureServer } from './fixture-tools.js';

const dir = process.env.PROXY_TEST_RECORD_DIR;
const input = new PassThrough();
const output = new PassThrough();
process.stdin.on('data', (chunk: Buffer) => {
  if (dir) appendFileSync(join(dir, 'in.bin'), chunk);
  input.write(chunk);
});
process.stdin.on('end', () => input.end());
output.on('data', (chunk: Buffer) => {
  if (dir) appendFileSync(join(dir, 'out.bin'), chunk);
  process.stdout.write(chunk);
});

const server = buildFixtureServer();
await server.connect(new StdioServerTransport(input, output));
