/**
 * Issue 40's "done when", first line: the real proxy (`mcpulse-devtools proxy`) in front of the
 * real `@modelcontextprotocol/server-everything`, whose arguments (`echo`) and answers (`echo`,
 * and `get-env` with the secrets in the proxied server's environment) carry an OpenAI key, a
 * GitHub token, an AWS key id, a JWT, URL credentials and an `access_token` parameter — sent to
 * a real dashboard over HTTP, into a real SQLite file. The raw bytes of the database file and
 * its `-wal`, read before and after a checkpoint, hold none of them; the stored messages say
 * where each was redacted; `args_hash` is still the hash of the original arguments.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashArguments } from '../../src/producer/measure.js';
import { connectionOf } from '../../src/store/connection.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { connectClient, proxied, until } from '../proxy/helpers.js';
import { fakeSecrets, ISSUE_40_KINDS, secretValues } from './fake-secrets.js';
import { databaseBytes, secretsOnDisk } from './helpers.js';

const EVERYTHING = [
  process.execPath,
  join(
    import.meta.dirname,
    '..',
    '..',
    'node_modules',
    '@modelcontextprotocol',
    'server-everything',
    'dist',
    'index.js',
  ),
  'stdio',
];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('credentials never reach the disk', () => {
  it('proxying server-everything stores none of six secret formats, in arguments or answers', async () => {
    const s = fakeSecrets();
    const key = 'mp_live_redact_disk';
    const message = [
      `openai ${s.openai}`,
      `github ${s.github}`,
      `aws ${s.aws}`,
      `jwt ${s.jwt}`,
      `clone ${s.url}`,
      `fetch ${s.tokenUrl}`,
    ].join('; ');
    // The proxied server's environment: `get-env` answers with all of it.
    const env = {
      OPENAI_API_KEY: s.openai,
      MCP_FIXTURE_GITHUB: s.github,
      MCP_FIXTURE_AWS: s.aws,
      MCP_FIXTURE_JWT: s.jwt,
      MCP_FIXTURE_REPO: s.url,
      MCP_FIXTURE_FEED: s.tokenUrl,
    };
    const { client, transport } = await connectClient(
      proxied(EVERYTHING, t.url, ['--key', key]),
      env,
    );
    const echoed = await client.callTool({ name: 'echo', arguments: { message } });
    const listed = await client.callTool({ name: 'get-env', arguments: {} });
    await transport.close();
    // The client itself got everything, unchanged: the proxy never alters the session.
    expect(JSON.stringify(echoed)).toContain(s.github);
    expect(JSON.stringify(listed)).toContain(s.openai);

    const { calls } = await until(
      () => t.api('calls', { project: key, limit: 10 }),
      (r) => r.calls.length >= 2,
    );
    const session = calls[0]!.session_id;
    const stored = await until(
      () => t.api('messages', { session, limit: 100 }),
      (r) => r.messages.filter((m) => m.method === 'tools/call').length >= 4,
    ).then((r) => r.messages);

    // Where each was redacted: the echo request's arguments, its answer, get-env's answer.
    const echoCall = calls.find((c) => c.tool_name === 'echo')!;
    const detail = await t.api('call', { id: echoCall.id });
    const kinds = ISSUE_40_KINDS;
    for (const kind of kinds) {
      expect(detail.content!.arguments).toContain(`[redacted: ${kind}]`);
      expect(detail.content!.result).toContain(`[redacted: ${kind}]`);
    }
    const envCall = calls.find((c) => c.tool_name === 'get-env')!;
    const envResult = (await t.api('call', { id: envCall.id })).content!.result!;
    expect(envResult).toContain('[redacted: key-name]'); // OPENAI_API_KEY, by its name
    for (const kind of kinds.slice(1)) expect(envResult).toContain(`[redacted: ${kind}]`);
    for (const m of stored) expect(() => JSON.parse(m.body)).not.toThrow();

    // args_hash is the original arguments' hash (what an SDK sends), not the redacted ones'.
    expect(echoCall.args_hash).toBe(hashArguments({ message }));
    expect(echoCall.args_hash).not.toBe(hashArguments(JSON.parse(detail.content!.arguments!)));

    // The raw bytes: before a checkpoint (the content is in the -wal), and after.
    const before = databaseBytes(t.dbPath);
    expect(before.wal.length + before.db.length).toBeGreaterThan(0);
    expect(secretsOnDisk(t.dbPath, secretValues(s))).toEqual([]);
    connectionOf(t.store).pragma('wal_checkpoint(FULL)');
    expect(databaseBytes(t.dbPath).db).toContain('[redacted: github-token]');
    expect(secretsOnDisk(t.dbPath, secretValues(s))).toEqual([]);

    // Nor did the proxy hand any to its spool folder.
    const spool = process.env.MCPULSE_DEVTOOLS_SPOOL_DIR!;
    for (const f of readdirSync(spool, { recursive: true, withFileTypes: true })) {
      if (!f.isFile()) continue;
      const text = readFileSync(join(f.parentPath, f.name), 'latin1');
      for (const secret of secretValues(s)) expect(text).not.toContain(secret);
    }
  }, 90_000);
});
