/**
 * The browser's view of the listener's defences, in real Chromium:
 * - DNS rebinding: a name that resolves to 127.0.0.1 (Chromium's host-resolver rules stand in
 *   for an attacker's DNS) reaches the listener with a foreign Host and is refused, page and API.
 * - A page served from another origin (a second tiny server on another port) cannot read
 *   /api/*, cannot post to /v1/ingest, and cannot clear data — by fetch() or by a text/plain
 *   form post — and nothing is stored.
 * - Hostile strings (HTML, script, RTL overrides, 200 characters, emoji) render as text.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findChromium } from './chromium-path.js';
import { expect, test, type DevtoolsServer } from './server.js';
import { getRemote } from '../src/api/remote.js';

test.use({
  launchOptions: {
    executablePath: findChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--no-proxy-server',
      // The attacker's DNS: rebind.test → 127.0.0.1.
      '--host-resolver-rules=MAP rebind.test 127.0.0.1',
    ],
  },
});

const KEY = 'mp_live_security_e2e';
const marker = (session: string, tool = 'marker_tool') => ({
  v: 1,
  type: 'call',
  session_id: session,
  client_name: 'e2e',
  tool_name: tool,
  started_at: '2026-12-02T10:00:00.000Z',
  duration_ms: 5,
  outcome: 'ok',
  response_bytes: 10,
  is_empty: false,
  args_hash: 'abcdefabcdef',
});

async function calls(
  devtools: DevtoolsServer,
): Promise<{ session_id: string; tool_name: string }[]> {
  return (await getRemote(devtools.url, 'calls', { limit: 10000 }, { token: devtools.token }))
    .calls;
}

/**
 * GET with an arbitrary Host header, from Node (a browser cannot forge Host), carrying the
 * owner token: the Host check refuses a foreign name even from the owner.
 */
function getWithHost(url: string, host: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      {
        host: '127.0.0.1',
        port: u.port,
        path: u.pathname,
        headers: { host, 'x-devtools-token': token },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('a non-loopback Host is refused: DNS rebinding in a real page, and forged Host headers', async ({
  page,
  devtools,
}) => {
  expect((await devtools.ingest({ batch: [marker('s_rebind_marker')] }, KEY)).status).toBe(202);
  const port = new URL(devtools.url).port;

  for (const host of [
    'evil.example',
    `evil.example:${port}`,
    'rebind.test',
    '192.168.1.10',
    '0.0.0.0',
    'localhost.evil.example',
  ]) {
    expect(await getWithHost(`${devtools.url}/api/calls`, host, devtools.token), host).toBe(403);
  }
  expect(await getWithHost(`${devtools.url}/api/calls`, `localhost:${port}`, devtools.token)).toBe(
    200,
  );

  // The attacker's page on rebind.test now talks to 127.0.0.1, same-origin from its view.
  const res = await page.goto(`http://rebind.test:${port}/`);
  expect(res?.status()).toBe(403);
  expect(await res?.text()).toContain('is not allowed');
  const attempts = await page.evaluate(async () => {
    const out: Record<string, number | string> = {};
    const body = JSON.stringify({
      batch: [
        {
          v: 1,
          type: 'call',
          session_id: 's_rebind_attack',
          client_name: 'x',
          tool_name: 'x',
          started_at: '2026-12-02T10:00:00Z',
          outcome: 'ok',
          args_hash: 'abcdefabcdef',
        },
      ],
    });
    for (const [name, init, path] of [
      ['read calls', {}, '/api/calls'],
      ['read status', {}, '/api/status'],
      [
        'ingest',
        {
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body,
        },
        '/v1/ingest',
      ],
      [
        'clear',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"confirm":"delete all data"}',
        },
        '/api/admin/clear',
      ],
    ] as const) {
      try {
        out[name] = (await fetch(path, init as RequestInit)).status;
      } catch (e) {
        out[name] = String(e);
      }
    }
    return out;
  });
  expect(attempts).toEqual({ 'read calls': 403, 'read status': 403, ingest: 403, clear: 403 });
  expect((await calls(devtools)).map((c) => c.session_id)).toContain('s_rebind_marker');
  expect((await calls(devtools)).map((c) => c.session_id)).not.toContain('s_rebind_attack');
});

/** The attacker's site: one HTML page that tries everything against `target` and reports back. */
function attackerPage(target: string): string {
  const batch = JSON.stringify({ batch: [marker('s_xorigin_attack')] });
  // A text/plain form body is `name=value`: split the JSON so the `=` lands inside a string.
  const formName = `${batch.slice(0, -1)},"pad":"`;
  return `<!doctype html><meta charset="utf-8"><title>attacker</title>
<iframe name="sink1"></iframe><iframe name="sink2"></iframe>
<form id="f1" method="POST" enctype="text/plain" target="sink1" action="${target}/v1/ingest"><input name='${formName}' value='"}'></form>
<form id="f2" method="POST" enctype="text/plain" target="sink2" action="${target}/api/admin/clear"><input name='{"confirm":"delete all data","pad":"' value='"}'></form>
<script>
window.results = {};
const T = ${JSON.stringify(target)};
const BODY = ${JSON.stringify(batch)};
async function attempt(name, path, init) {
  try {
    const r = await fetch(T + path, init);
    let text = null;
    try { text = await r.text(); } catch (e) { text = 'unreadable'; }
    window.results[name] = { type: r.type, status: r.status, text };
  } catch (e) {
    window.results[name] = { error: String(e) };
  }
}
(async () => {
  await attempt('read calls', '/api/calls', {});
  await attempt('read calls no-cors', '/api/calls', { mode: 'no-cors' });
  await attempt('read stream', '/api/stream', {});
  await attempt('ingest json+auth', '/v1/ingest', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ${KEY}' }, body: BODY });
  await attempt('ingest text/plain no-cors', '/v1/ingest', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: BODY });
  await attempt('clear json', '/api/admin/clear', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"confirm":"delete all data"}' });
  await attempt('clear text/plain no-cors', '/api/admin/clear', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"confirm":"delete all data"}' });
  await attempt('retention put no-cors', '/api/settings/retention', { method: 'PUT', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"max_age_days":1}' });
  document.getElementById('f1').submit();
  document.getElementById('f2').submit();
  await new Promise((r) => setTimeout(r, 1500));
  window.results.sink = (() => { try { return frames[0].document.body.innerText; } catch (e) { return 'unreadable'; } })();
  window.done = true;
})();
</script>`;
}

async function serveAttacker(html: string): Promise<{ server: Server; port: number }> {
  const server = createServer((_, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

for (const attackerHost of ['127.0.0.1', 'localhost']) {
  test(`a page on another origin (http://${attackerHost}:other-port) can neither read nor write`, async ({
    page,
    devtools,
  }) => {
    const session = `s_marker_${attackerHost.replace(/\W/g, '')}`;
    expect((await devtools.ingest({ batch: [marker(session)] }, KEY)).status).toBe(202);
    // The caps alone: a retention pass may end during the test and change `last_pass`.
    const caps = async (): Promise<unknown> => {
      const view = (await (
        await fetch(`${devtools.url}/api/settings/retention`, { headers: devtools.headers })
      ).json()) as { max_calls: number; max_age_days: number };
      return { max_calls: view.max_calls, max_age_days: view.max_age_days };
    };
    const retentionBefore = await caps();
    const { server, port } = await serveAttacker(attackerPage(devtools.url));
    try {
      await page.goto(`http://${attackerHost}:${port}/`);
      await page.waitForFunction(
        () => (window as unknown as { done?: boolean }).done === true,
        undefined,
        { timeout: 20_000 },
      );
      const results = (await page.evaluate(
        () => (window as unknown as { results: unknown }).results,
      )) as Record<
        string,
        { type?: string; status?: number; text?: string | null; error?: string } | string
      >;
      // Reads: a CORS failure or an opaque response — never data.
      for (const name of ['read calls', 'read stream', 'ingest json+auth', 'clear json']) {
        const r = results[name] as { error?: string };
        expect(r.error, `${name}: ${JSON.stringify(r)}`).toMatch(/TypeError|Failed to fetch/);
      }
      // Simple requests the browser may send without asking: either refused outright (the
      // listener's Cross-Origin-Resource-Policy makes Chromium fail them) or opaque — status 0,
      // no body. Either way the page learns nothing.
      for (const name of [
        'read calls no-cors',
        'ingest text/plain no-cors',
        'clear text/plain no-cors',
        'retention put no-cors',
      ]) {
        const r = results[name] as {
          type?: string;
          status?: number;
          text?: string;
          error?: string;
        };
        if (r.error) expect(r.error, name).toMatch(/TypeError|Failed to fetch/);
        else
          expect({ type: r.type, status: r.status, text: r.text }, name).toEqual({
            type: 'opaque',
            status: 0,
            text: '',
          });
      }
      expect(results.sink).toBe('unreadable');
    } finally {
      server.close();
    }
    // Nothing stored, nothing cleared, nothing changed.
    const sessions = (await calls(devtools)).map((c) => c.session_id);
    expect(sessions).toContain(session);
    expect(sessions).not.toContain('s_xorigin_attack');
    expect(await caps()).toEqual(retentionBefore);
  });
}

test('hostile strings render as text, never markup', async ({ page, devtools }) => {
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  const names = [
    '<img src=x onerror=alert(1)>',
    '<script>window.__pwned=1</script>',
    '"><svg onload=alert(2)>',
    'javascript:alert(3)',
    '\u202Egnp.exe_tool',
    'أداة_البحث_في_المستندات',
    `long_${'n'.repeat(195)}`,
    '🚀_launch_👩‍💻_tool',
  ];
  const key = 'mp_live_hostile_sec';
  const session = 's_0000hostile0';
  const batch = [
    {
      v: 1,
      type: 'startup',
      session_id: session,
      client_name: '<b>client</b>',
      tools: names.map((name) => ({ name, schema_bytes: 100 })),
    },
    ...names.map((tool, i) => ({
      ...marker(session, tool),
      client_name: '<i>client</i>',
      started_at: new Date(Date.parse('2026-12-02T11:00:00Z') + i * 40_000).toISOString(),
    })),
  ];
  expect((await devtools.ingest({ batch }, key)).status).toBe(202);
  for (const path of [`/tools?project=${key.slice(0, 12)}`, `/calls?project=${key.slice(0, 12)}`]) {
    await page.goto(devtools.url + path);
    for (const name of names)
      await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
    expect(
      await page.locator('img[src="x"], svg[onload], script:not([src]):not([type])').count(),
    ).toBe(0);
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
  }
  expect(dialogs).toBe(0);
});
