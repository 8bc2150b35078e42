/**
 * Nothing lost at exit: a flood of calls, then the client stops the proxy at once (SIGTERM the
 * moment the server has exited, as an impatient client would). What the dashboard had not taken
 * is handed to the detached poster, which delivers it after the proxy is gone: every call
 * arrives, and the stderr line's counts are exact. A dashboard that is down when the proxy
 * exits gets the hand-off once it is back.
 */
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyDigest, spoolDir, type SpoolFile } from '../../src/proxy/spool.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { proxied, PY_SERVER, RecordingStdioTransport, until } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** `n` pipelined `echo` calls as raw lines, after an initialize. */
function flood(n: number): string {
  const out = [
    '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}}',
  ];
  for (let i = 1; i <= n; i++)
    out.push(
      `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"echo","arguments":{"text":"n${i}"}}}`,
    );
  return out.join('\n') + '\n';
}

/** The pids of a process's children (Linux: /proc/PID/task/TID/children, for every thread). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
    if (text) out.push(...text.split(/\s+/).map(Number));
  }
  return out;
}

/** The counts in the hand-off line, or zeros if there is none. */
function handedOff(stderr: string): { calls: number; messages: number } {
  const m = /handed the telemetry of (\d+) calls?, \d+ startups?, (\d+) messages?/.exec(stderr);
  return m ? { calls: Number(m[1]), messages: Number(m[2]) } : { calls: 0, messages: 0 };
}

describe('a flood, then the proxy is stopped at once', () => {
  it('every call and message arrives (handed off to the poster); the line is exact', async () => {
    const n = 3000;
    const key = 'mp_live_handoff_flood';
    const transport = new RecordingStdioTransport(proxied(PY_SERVER, t.url, ['--key', key]));
    await transport.start();
    let answers = 0;
    let buffered = '';
    const allAnswered = new Promise<void>((resolve) =>
      transport.child.stdout!.on('data', (c: Buffer) => {
        buffered += c.toString();
        const parts = buffered.split('\n');
        buffered = parts.pop()!;
        answers += parts.length;
        if (answers >= n + 1) resolve();
      }),
    );
    transport.writeRaw(flood(n));
    await allAnswered;
    transport.child.stdin!.end();
    // The server exits at end of input; stop the proxy the moment it has (it is flushing then).
    await until(
      async () => childrenOf(transport.child.pid!),
      (children) => children.length === 0,
    );
    transport.child.kill('SIGTERM');
    const exit = await transport.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    const stderr = transport.stderr();
    expect(stderr).not.toMatch(/dropped/);
    const handed = handedOff(stderr);
    const { calls } = await until(
      () => t.api('calls', { project: key, limit: 10_000 }),
      (r) => r.calls.length >= n,
      60_000,
    );
    expect(calls).toHaveLength(n);
    expect(new Set(calls.map((c) => c.args_hash)).size).toBe(n);
    const session = calls[0]!.session_id;
    const stored = await until(
      () => t.api('messages', { session, limit: 5000 }),
      (r) => r.total >= 2 * (n + 1),
      60_000,
    );
    // initialize, its answer, n calls and n answers (the notification-free raw client).
    expect(stored.total).toBe(2 * (n + 1));
    // Whatever the line says was handed off is part of what arrived, never more.
    expect(handed.calls).toBeLessThanOrEqual(n);
    expect(handed.messages).toBeLessThanOrEqual(2 * (n + 1));
  }, 120_000);
});

describe('the dashboard is down at exit and comes back', () => {
  it('the poster delivers once it answers', async () => {
    // A port nothing listens on yet; the proxy is told the dashboard is there (it "hangs" on
    // the probe's timeout rule no more than a refused one: it cannot start its own on a port
    // we hold), then the dashboard starts on that port after the proxy has exited.
    const holder = createServer((_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}`;
    const key = 'mp_live_handoff_later';
    const transport = new RecordingStdioTransport(proxied(PY_SERVER, url, ['--key', key]));
    await transport.start();
    transport.writeRaw(flood(20));
    await new Promise((r) => setTimeout(r, 500));
    await transport.close();
    expect(handedOff(transport.stderr()).calls).toBe(20);
    holder.closeAllConnections();
    await new Promise<void>((r) => holder.close(() => r()));
    const later = await startTestServer({ port });
    try {
      const { calls } = await until(
        () => later.api('calls', { project: key, limit: 100 }),
        (r) => r.calls.length >= 20,
        30_000,
      );
      expect(calls).toHaveLength(20);
    } finally {
      await later.close();
    }
  }, 90_000);
});

describe('a hand-off whose poster gave up', () => {
  it('is adopted by the next proxy with the same key and dashboard (a dead claim too)', async () => {
    const key = 'mp_live_handoff_adopted';
    // What a poster leaves when the dashboard stayed away past its deadline: the file, no key.
    const call = {
      v: 1,
      type: 'call',
      session_id: 's_0000000adopt',
      client_name: 'left-behind',
      tool_name: 'echo',
      started_at: new Date().toISOString(),
      duration_ms: 3,
      outcome: 'ok',
      response_bytes: 10,
      is_empty: false,
      args_hash: '44136fa355b3',
    };
    const spool: SpoolFile = {
      v: 1,
      endpoint: t.url,
      key_sha256: keyDigest(key),
      posts: [{ path: '/v1/ingest', body: JSON.stringify({ batch: [call] }) }],
    };
    const file = join(spoolDir(), 'proxy-left-behind.json');
    writeFileSync(file, JSON.stringify(spool), { mode: 0o600 });
    // …and one a poster died holding (its claim names a process that is gone).
    const orphan = { ...call, client_name: 'dead-claim' };
    const claimed = join(spoolDir(), 'proxy-dead-claim.json.sending-999999');
    const orphanSpool = {
      ...spool,
      posts: [{ path: '/v1/ingest', body: JSON.stringify({ batch: [orphan] }) }],
    };
    writeFileSync(claimed, JSON.stringify(orphanSpool), { mode: 0o600 });
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    utimesSync(claimed, old, old);
    const transport = new RecordingStdioTransport(proxied(PY_SERVER, t.url, ['--key', key]));
    await transport.start();
    transport.writeRaw(flood(1));
    await new Promise((r) => setTimeout(r, 500));
    await transport.close();
    const { calls } = await until(
      () => t.api('calls', { project: key, limit: 100 }),
      (r) =>
        r.calls.some((c) => c.client_name === 'left-behind') &&
        r.calls.some((c) => c.client_name === 'dead-claim'),
      30_000,
    );
    expect(calls.filter((c) => c.client_name === 'left-behind')).toHaveLength(1);
    expect(calls.filter((c) => c.client_name === 'dead-claim')).toHaveLength(1);
    await until(
      async () => existsSync(file),
      (present) => !present,
    );
  }, 60_000);
});
