/**
 * The proxy bench's two kinds of client, each driving a stdio server it spawns (directly, or the
 * proxy wrapping it) with trivial `ping` tool calls:
 *
 * - `sdk`: the real TypeScript SDK `Client` + `StdioClientTransport`, talking to a real SDK
 *   `McpServer` (sdk-server.ts) — what a proxied session actually runs;
 * - `raw`: a bare JSON-RPC line client talking to a bare line server (trivial-server.ts) — no
 *   SDK on either side, so only the pipes and the proxy between them are measured (the floor).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LineSplitter } from '../../src/proxy/lines.js';
import { ROOT } from '../ingest/util.js';

/** Which pair of client and server. */
export type Pairing = 'sdk' | 'raw';

/** The server command of each pairing. */
export const SERVERS: Record<Pairing, string[]> = {
  sdk: [process.execPath, '--import', 'tsx', join(ROOT, 'bench', 'proxy', 'sdk-server.ts')],
  raw: [process.execPath, '--import', 'tsx', join(ROOT, 'bench', 'proxy', 'trivial-server.ts')],
};

/** A connected client: one `ping` call at a time per `call`; `close` waits for the exit. */
export interface BenchClient {
  call(i: number): Promise<void>;
  close(): Promise<void>;
}

/** Connects a client of `pairing` to `command` (the server, or the proxy wrapping it). */
export async function connect(pairing: Pairing, command: string[]): Promise<BenchClient> {
  return pairing === 'sdk' ? connectSdk(command) : connectRaw(command);
}

async function connectSdk(command: string[]): Promise<BenchClient> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    // The whole environment (the SDK passes only a safe few by default): the proxy's spool
    // folder is set there.
    new StdioClientTransport({
      command: command[0]!,
      args: command.slice(1),
      stderr: 'inherit',
      env: process.env as Record<string, string>,
    }),
  );
  await client.listTools();
  return {
    call: async (i) => {
      await client.callTool({ name: 'ping', arguments: { i, q: 'bench' } });
    },
    close: () => client.close(),
  };
}

async function connectRaw(command: string[]): Promise<BenchClient> {
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = new Map<number, () => void>();
  let nextId = 1;
  const lines = new LineSplitter((line) => {
    const id = (JSON.parse(line.toString()) as { id?: number }).id;
    if (id === undefined) return;
    const done = waiting.get(id);
    waiting.delete(id);
    done?.();
  });
  child.stdout!.on('data', (c: Buffer) => lines.push(c));
  const request = (method: string, params: unknown): Promise<void> => {
    const id = nextId++;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  };
  await request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  });
  child.stdin!.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  await request('tools/list', {});
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    call: (i) => request('tools/call', { name: 'ping', arguments: { i, q: 'bench' } }),
    close: async () => {
      child.stdin!.end();
      await exited;
    },
  };
}

/**
 * CPU time (ms) of this process's children that have exited and been reaped — a client's server,
 * or the proxy with the server it reaped — from /proc/self/stat (cutime + cstime). Linux only.
 */
export function reapedChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the name start at 3 (state); cutime and cstime are fields 16 and 17.
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) * 10;
}

/** CPU time (ms) a running process has used (utime + stime), from /proc/PID/stat. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[14 - 3]) + Number(fields[15 - 3])) * 10;
}
