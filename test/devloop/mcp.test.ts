import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo } from '../../src/demo/index.js';
import { CLI } from '../helpers/cli.js';
import type { ToolAnswer, ToolName } from '../../src/mcp/server.js';
import { capture, startTestServer, type TestServer } from '../helpers/server.js';

type Text = { content: { type: string; text: string }[]; isError?: boolean };

/**
 * Calls tool `name` and reads the JSON it answered, typed by the tool's own definition
 * (`ToolAnswer`, src/mcp/tools): the one place the test takes the wire's word for a type.
 */
async function answer<K extends ToolName>(
  client: Client,
  name: K,
  args: Record<string, unknown>,
): Promise<ToolAnswer[K]> {
  const r = (await client.callTool({ name, arguments: args })) as Text;
  if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
  return JSON.parse(r.content[0]!.text) as ToolAnswer[K];
}

/** Spawns the real `mcpulse-devtools mcp` and connects a real SDK client over stdio. */
async function connectMcp(db: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', CLI, 'mcp', '--db', db],
    env: { ...(process.env as Record<string, string>) },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'vitest-assistant', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('mcp: an MCP server over the data, through a real stdio client', () => {
  let t: TestServer;
  let client: Client;
  let sessions: string[];
  beforeAll(async () => {
    t = await startTestServer();
    ({ sessions } = await runDemo({ endpoint: t.url, fast: true }));
    // One dropped item, so rejected_items has something to say.
    await t.ingest({
      batch: [
        {
          v: 1,
          type: 'call',
          session_id: 's_x',
          client_name: 'c',
          tool_name: 't',
          started_at: 'yesterday',
          outcome: 'ok',
          args_hash: 'abcd',
        },
      ],
    });
    await t.ingest(capture('ts-sdk-exercise'), { key: 'mp_live_other' });
    client = await connectMcp(t.dbPath);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('lists its seven tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual([
      'hash_arguments',
      'list_projects',
      'list_sessions',
      'rejected_items',
      'retry_chains',
      'session_calls',
      'tool_health',
    ]);
  });

  it('list_projects: the demo’s project by its ref, the key prefix as a label', async () => {
    const r = await answer(client, 'list_projects', {});
    const ref = createHash('sha256').update('mp_live_demo').digest('hex').slice(0, 12);
    // The demo's key, the dropped item's (mp_live_test) and mp_live_other: three projects.
    expect(r.projects).toHaveLength(3);
    expect(r.projects).toContainEqual(expect.objectContaining({ ref, key_prefix: 'mp_live_demo' }));
    expect(r.warnings).toEqual([]);
    const byRef = await answer(client, 'list_sessions', { project: ref });
    expect(byRef.total).toBe(7);
  });

  it('list_sessions: the demo’s sessions with their numbers', async () => {
    const r = await answer(client, 'list_sessions', { project: 'mp_live_demo' });
    expect(r.total).toBe(7);
    expect(new Set(r.sessions.map((s) => s.id))).toEqual(new Set(sessions));
    expect(r.sessions.reduce((a, s) => a + s.calls, 0)).toBe(46);
    expect(r.sessions.reduce((a, s) => a + s.retries, 0)).toBe(17);
  });

  it('session_calls: defaults to the latest session, and explains each call', async () => {
    const latest = await answer(client, 'session_calls', {});
    const newest = await answer(client, 'list_sessions', { limit: 1 });
    // The most recent activity: a demo session (the capture's calls are dated earlier).
    expect(latest.session.id).toBe(newest.sessions[0]!.id);
    expect(sessions).toContain(latest.session.id);
    expect(latest.calls).toHaveLength(latest.session.calls);
    const r = await answer(client, 'session_calls', { session_id: 's_e4cc6a39269d' });
    expect(r.calls.filter((c) => c.first_call_success).map((c) => c.tool)).toEqual([
      'slow_tool',
      'fast_tool',
    ]);
    expect(r.calls[0]).toMatchObject({ tool: 'fast_tool', outcome: 'ok', retried: true });
    expect(r.calls[0]!.why).toMatch(/retried/);
    expect(r.chains).toEqual([expect.objectContaining({ resolved: true, calls: 3, retries: 2 })]);
    const missing = (await client.callTool({
      name: 'session_calls',
      arguments: { session_id: 's_nope' },
    })) as Text;
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toMatch(/no session 's_nope'/);
  });

  it('tool_health: per-tool numbers, dead tools and insights', async () => {
    const r = await answer(client, 'tool_health', { project: 'mp_live_demo' });
    expect(r.totals).toMatchObject({ calls: 46, dead_tools: 1 });
    expect(r.tools.find((x) => x.name === 'archive_project')).toMatchObject({
      calls: 0,
      dead: true,
    });
    expect(r.tools.find((x) => x.name === 'search_tickets')).toMatchObject({
      calls: 1,
      registered: false,
    });
    expect(r.tools.find((x) => x.name === 'search_issues')).toMatchObject({ calls: 22 });
    expect(r.insights.some((i) => i.tool === 'search_issues' && i.severity === 'high')).toBe(true);
  });

  it('retry_chains: resolved and unresolved', async () => {
    const all = await answer(client, 'retry_chains', { project: 'mp_live_demo' });
    expect(all).toMatchObject({ total: 8, resolved: 6, unresolved: 2 });
    const open = await answer(client, 'retry_chains', { project: 'mp_live_demo', resolved: false });
    expect(open.chains).toHaveLength(2);
    expect(
      open.chains.every(
        (c) => c.tool === 'search_issues' && !c.resolved && c.final_outcome === 'empty',
      ),
    ).toBe(true);
  });

  it('rejected_items: what the endpoint dropped, with production’s reason', async () => {
    const r = await answer(client, 'rejected_items', {});
    expect(r.rejections).toEqual([
      expect.objectContaining({ reason: 'started_at: Invalid datetime' }),
    ]);
    expect(r.rejections[0]!.item).toContain('yesterday');
  });

  it('hash_arguments: the SDKs’ args_hash, from a value or from JSON text', async () => {
    expect(await answer(client, 'hash_arguments', {})).toEqual({
      args_hash: '44136fa355b3',
      canonical: '{}',
      unhashable: false,
    });
    const a = await answer(client, 'hash_arguments', { arguments: { b: 1.0, a: 'x' } });
    expect(a.canonical).toBe('{"a":"x","b":1}');
    const b = await answer(client, 'hash_arguments', { json: '{ "a": "x", "b": 1.0 }' });
    expect(b.args_hash).toBe(a.args_hash);
    const bad = (await client.callTool({
      name: 'hash_arguments',
      arguments: { json: '{' },
    })) as Text;
    expect(bad.isError).toBe(true);
  });

  it('answers a clear error when the database does not exist yet', async () => {
    const c = await connectMcp(join(tmpdir(), 'mcpulse-no-such-dir', 'nothing.db'));
    try {
      const r = (await c.callTool({ name: 'list_sessions', arguments: {} })) as Text;
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toMatch(/no database at .*nothing\.db/);
    } finally {
      await c.close();
    }
  });
});
