/**
 * `serve --host` beyond loopback, tried from another machine (issue 40): a network namespace
 * this test makes, joined by a veth pair with private addresses, is the other machine — so no
 * packet leaves this one. Real `serve` processes, real HTTP from inside the namespace.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, waitForOutput } from '../helpers/cli.js';
import { createNetns, netnsUnavailable, REQUEST_SCRIPT, type TestNetns } from '../helpers/netns.js';
import { capture } from '../helpers/server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TEST_TOKEN, TOKEN_HEADERS } from '../helpers/token.js';
import { CLEAR_CONFIRMATION } from '../../src/api/admin-routes.js';

const unavailable = netnsUnavailable();

type Answer = { status: number; body: string };

/** A `serve` child with its port and the lines it printed. */
async function serve(args: string[], db: string) {
  const child = spawnCli(['serve', '--port', '0', '--db', db, '--no-rate-limit', ...args]);
  const out = await waitForOutput(child, (o) => /dashboard\s+http:\/\/\S+/.test(o), 20_000);
  const port = Number(new URL(/dashboard\s+(http:\/\/\S+)/.exec(out)![1]!).port);
  return {
    port,
    out,
    err: () => child.err(),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

describe.skipIf(unavailable !== null)(
  `serve --host 0.0.0.0 from another network namespace${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let ns: TestNetns;
    let dir: { dir: string; remove: () => void };
    let server: Awaited<ReturnType<typeof serve>>;
    let session: string;
    /** One request from inside the namespace. */
    const fromNs = (o: {
      path: string;
      method?: string;
      host?: string;
      headers?: Record<string, string>;
      body?: string;
    }): Answer =>
      JSON.parse(
        ns.node(REQUEST_SCRIPT, [
          JSON.stringify({
            url: `http://${ns.hostAddress}:${server.port}${o.path}`,
            method: o.method,
            headers: { host: o.host ?? `${ns.hostAddress}:${server.port}`, ...o.headers },
            body: o.body,
          }),
        ]),
      ) as Answer;
    const local = (path: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${server.port}${path}`, init);

    beforeAll(async () => {
      ns = createNetns();
      dir = tempDir('mcpulse-netns-');
      server = await serve(['--host', '0.0.0.0'], join(dir.dir, 'd.db'));
      const ingest = await local('/v1/ingest', {
        method: 'POST',
        headers: { authorization: 'Bearer mp_live_owner', 'content-type': 'application/json' },
        body: capture('ts-sdk-exercise'),
      });
      expect(ingest.status).toBe(202);
      const calls = (await (await local('/api/calls', { headers: TOKEN_HEADERS })).json()) as {
        calls: { session_id: string }[];
      };
      session = calls.calls[0]!.session_id;
    }, 40_000);
    afterAll(async () => {
      await server?.stop();
      ns?.remove();
      dir?.remove();
    });

    it('says what is exposed when it starts', () => {
      expect(server.out).toMatch(
        /listening on 0\.0\.0\.0:\d+ — ingest open to the network; dashboard and API need the token/,
      );
      expect(server.err()).toMatch(
        /the dashboard, its API and the status answer only requests with the token/,
      );
    });

    it('the namespace really is another machine: its address is not loopback', () => {
      expect(ns.peerAddress).toMatch(/^10\.233\./);
      const self = fromNs({ path: '/api/status' });
      expect(self.status).not.toBe(0);
    });

    it('a forged Host: localhost cannot clear data, with or without the token', () => {
      for (const headers of [{}, TOKEN_HEADERS]) {
        const clear = fromNs({
          path: '/api/admin/clear',
          method: 'POST',
          host: `localhost:${server.port}`,
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ confirm: CLEAR_CONFIRMATION }),
        });
        expect(clear.status).toBe(403);
        expect(clear.body).toMatch(/only this machine is localhost/);
      }
    });

    it('a forged Host: localhost cannot read content, the status or the page', () => {
      for (const path of [`/api/messages?session=${session}`, '/api/calls', '/api/status', '/']) {
        const answer = fromNs({ path, host: `localhost:${server.port}` });
        expect(answer.status, path).toBe(403);
        expect(answer.body).not.toContain(session);
      }
      const forged127 = fromNs({ path: '/api/calls', host: `127.0.0.1:${server.port}` });
      expect(forged127.status).toBe(403);
    });

    it('its own address as Host reaches nothing but ingest', () => {
      expect(fromNs({ path: `/api/messages?session=${session}` }).status).toBe(403);
      expect(fromNs({ path: '/' }).status).toBe(403);
    });

    it('ingest from the namespace works, as the hosted API would', () => {
      const answer = fromNs({
        path: '/v1/ingest',
        method: 'POST',
        headers: { authorization: 'Bearer mp_live_remote', 'content-type': 'application/json' },
        body: capture('go-style'),
      });
      expect(answer.status).toBe(202);
    });

    it('afterwards nothing was cleared, and the remote batch is stored', async () => {
      const res = await local('/api/projects', { headers: TOKEN_HEADERS });
      const { projects } = (await res.json()) as { projects: { key_prefix: string }[] };
      expect(projects.map((p) => p.key_prefix).sort()).toEqual(['mp_live_owne', 'mp_live_remo']);
    });

    it('on this machine the page and the status need the token too (the listener is exposed)', async () => {
      expect((await local('/')).status).toBe(401);
      expect(await (await local('/')).text()).toMatch(/mcpulse-devtools token/);
      expect((await local('/api/status')).status).toBe(401);
      expect((await local('/api/status', { headers: TOKEN_HEADERS })).status).toBe(200);
      expect((await local('/', { headers: TOKEN_HEADERS })).status).toBe(200);
    });

    it('bound to its own address, the page from the namespace needs the token', async () => {
      const named = await serve(['--host', ns.hostAddress], join(dir.dir, 'named.db'));
      try {
        const ask = (path: string, headers: Record<string, string> = {}): Answer =>
          JSON.parse(
            ns.node(REQUEST_SCRIPT, [
              JSON.stringify({
                url: `http://${ns.hostAddress}:${named.port}${path}`,
                headers: { host: `${ns.hostAddress}:${named.port}`, ...headers },
              }),
            ]),
          ) as Answer;
        const page = ask('/');
        expect(page.status).toBe(401);
        expect(page.body).toMatch(/This dashboard is locked/);
        expect(ask('/api/status').status).toBe(401);
        expect(ask('/api/calls').status).toBe(401);
        expect(ask('/api/calls', TOKEN_HEADERS).status).toBe(200);
        expect(ask('/', { 'x-devtools-token': TEST_TOKEN }).status).toBe(200);
      } finally {
        await named.stop();
      }
    }, 30_000);
  },
);
