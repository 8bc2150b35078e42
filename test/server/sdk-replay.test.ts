/**
 * Every SDK's request body (fixtures/captures/, written from each SDK's source) posted to a real
 * server: accepted whole, and every call, startup and agreement verdict stored as sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRow } from '../../src/store/index.js';
import { capture, startTestServer, type CaptureName, type TestServer } from '../helpers/server.js';
import { authedFetch } from '../helpers/token.js';

type Wire = Record<string, unknown> & { type: string };

const SDKS: { name: CaptureName; contentType?: string }[] = [
  { name: 'ts-sdk-exercise' },
  { name: 'go-omitted' },
  { name: 'go-style' },
  { name: 'ruby-style' },
  { name: 'php-0.1.6' },
  { name: 'dotnet-style', contentType: 'application/json; charset=utf-8' },
  { name: 'kotlin-style' },
];

const CALL_FIELDS = ['v', 'type', 'session_id', 'client_name', 'tool_name', 'started_at'];
const CALL_DEFAULTS = { duration_ms: 0, outcome: undefined, response_bytes: 0, is_empty: false };

describe.each(SDKS)('$name request body', ({ name, contentType }) => {
  let t: TestServer;
  const sent = (JSON.parse(capture(name)) as { batch: Wire[] }).batch;
  const of = (type: string) => sent.filter((p) => p.type === type);
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('is accepted whole: 202, x-mcpulse-rejected: 0', async () => {
    const res = await t.ingest(
      capture(name),
      contentType ? { headers: { 'content-type': contentType } } : {},
    );
    expect(res.status).toBe(202);
    expect(res.headers.get('x-mcpulse-rejected')).toBe('0');
    expect(res.headers.get('x-mcpulse-accepted')).toBe(String(sent.length));
    const { rejections } = await t.api('rejections');
    expect(rejections).toEqual([]);
  });

  it('stores every call with omitted fields at their zero values', async () => {
    const { calls } = await t.api('calls');
    const expected = of('call').map((p) => {
      const out: Record<string, unknown> = {};
      for (const f of CALL_FIELDS.slice(2)) out[f] = p[f];
      for (const [f, zero] of Object.entries(CALL_DEFAULTS)) out[f] = p[f] ?? zero;
      out.args_hash = p.args_hash;
      return out;
    });
    const stored = [...calls]
      .sort((a, b) => a.id - b.id)
      .map((c) => {
        const out: Record<string, unknown> = {};
        for (const f of Object.keys(expected[0] ?? {})) out[f] = c[f as keyof CallRow];
        return out;
      });
    expect(stored).toEqual(expected);
  });

  it('stores every startup, its tools and their extra fields', async () => {
    const { startups } = await t.api('startups');
    expect(
      [...startups].reverse().map((s) => ({ session_id: s.session_id, tools: s.tools })),
    ).toEqual(
      of('startup').map((s) => ({
        session_id: s.session_id,
        tools: ((s.tools as Record<string, unknown>[] | undefined) ?? []).map((tool) => ({
          name: tool.name,
          schema_bytes: tool.schema_bytes,
        })),
      })),
    );
  });

  it('exports every payload as the SDK sent it: omitted fields stay omitted, byte for byte', async () => {
    const res = await authedFetch(`${t.url}/api/export?format=jsonl`);
    expect(res.status).toBe(200);
    const lines = (await res.text()).trimEnd().split('\n');
    // One request: its startups lead, its verdicts follow its calls (export-jsonl.ts).
    const expected = [...of('startup'), ...of('call'), ...of('agreement')];
    // The same fields with the same values: nothing written out that was left out.
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(expected);
    // Byte for byte where the SDK writes the contract's fields first (every SDK but PHP,
    // whose startup puts its extras before `tools`; the export writes extras last).
    if (name !== 'php-0.1.6') expect(lines).toEqual(expected.map((p) => JSON.stringify(p)));
  });

  it('stores every agreement verdict as sent', async () => {
    const { agreements, checks, diverged } = await t.api('agreements');
    const sentAgreements = of('agreement');
    expect(checks).toBe(sentAgreements.length);
    expect(diverged).toBe(sentAgreements.filter((a) => a.agreed === false).length);
    expect(
      [...agreements].reverse().map((a) => ({
        v: a.v,
        type: a.type,
        session_id: a.session_id,
        field: a.field,
        tool_a: a.tool_a,
        tool_b: a.tool_b,
        agreed: a.agreed,
        checked_at: a.checked_at,
        window_ms: a.window_ms,
      })),
    ).toEqual(sentAgreements);
  });
});

describe('PHP 0.1.6 startup extras', () => {
  it('keeps sdk, transport and the per-tool hashes and policy for the session view', async () => {
    const t = await startTestServer();
    try {
      await t.ingest(capture('php-0.1.6'));
      const { startups } = await t.api('startups');
      expect(startups[0]!.extra).toMatchObject({
        sdk: 'getmcpulse/mcpulse',
        sdk_version: '0.1.6',
        transport: 'stdio',
      });
      const session = await t.api('session', { id: 's_7d1e2f3a4b5c' });
      expect(session.sdk).toEqual({
        name: 'getmcpulse/mcpulse',
        version: '0.1.6',
        mcp_sdk_version: '1.1.0',
        transport: 'stdio',
        protocol_version: null,
        declared_fields: ['issue_id'],
      });
    } finally {
      await t.close();
    }
  });
});

describe('PHP 0.1.6 per-tool fingerprints', () => {
  it('shows the latest schema and description hashes, how often they changed, and policy', async () => {
    const t = await startTestServer();
    try {
      const body = JSON.parse(capture('php-0.1.6')) as { batch: Record<string, unknown>[] };
      await t.ingest(body);
      const startup = body.batch[0] as { tools: Record<string, unknown>[] };
      const search = startup.tools[0]!;
      const first = await t.api('tool', { name: 'search' });
      expect(first.fingerprints).toEqual({
        schema_hash: search.schema_hash,
        description_hash: search.description_hash,
        description_norm: search.description_norm,
        policy: null,
        startups: 1,
        schema_changes: 0,
        description_changes: 0,
      });
      const closing = await t.api('tool', { name: 'close_issue' });
      expect(closing.fingerprints?.policy).toEqual({
        requires_authorization: true,
        requires_verified_identity: false,
      });
      // A later process: the schema changed, the wording did not.
      await t.ingest({
        batch: [
          {
            ...startup,
            session_id: 's_8e2f3a4b5c6d',
            tools: [{ ...search, schema_hash: 'aaaaaaaaaaaa' }],
          },
        ],
      });
      const second = await t.api('tool', { name: 'search' });
      expect(second.fingerprints).toMatchObject({
        schema_hash: 'aaaaaaaaaaaa',
        startups: 2,
        schema_changes: 1,
        description_changes: 0,
      });
      // An SDK without fingerprints: none.
      await t.ingest(capture('go-style'));
      const go = await t.api('tool', { name: 'get_order' });
      expect(go.fingerprints).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describe('sdk strings split into name and version; declared fields shown with their checks', () => {
  const php = JSON.parse(capture('php-0.1.6')) as { batch: Record<string, unknown>[] };
  const sessionOf = (s: string, extras: Record<string, unknown>) => ({
    batch: php.batch.map((p) => {
      const out: Record<string, unknown> = { ...p, session_id: s };
      if (p.type !== 'startup') return out;
      // The startup as PHP 0.1.6's MCPulse.php assembles it: `sdk` as name@version.
      const { sdk_version: _v, agreements: _a, ...rest } = out;
      return { ...rest, ...extras };
    }),
  });

  it.each([
    ['getmcpulse/mcpulse@0.1.6', 'getmcpulse/mcpulse', '0.1.6'],
    ['mcpulse-devtools-proxy@0.1.0', 'mcpulse-devtools-proxy', '0.1.0'],
    ['@mcpulse/sdk@0.1.6', '@mcpulse/sdk', '0.1.6'],
    ['@mcpulse/sdk', '@mcpulse/sdk', null],
  ])('%s → %s, %s', async (sdk, name, version) => {
    const t = await startTestServer();
    try {
      await t.ingest(
        sessionOf('s_5d5d5d5d5d5d', {
          sdk,
          protocol_version: '2025-06-18',
          agree_declared: ['issue_id', 'project_id'],
        }),
      );
      const session = await t.api('session', { id: 's_5d5d5d5d5d5d' });
      expect(session.sdk).toMatchObject({ name, version, protocol_version: '2025-06-18' });
      // issue_id has a verdict in this session; project_id was declared and never checked.
      expect(session.declared_fields).toEqual([
        {
          field: 'issue_id',
          checks: php.batch.filter((p) => p.type === 'agreement').length,
          never_checked: false,
        },
        { field: 'project_id', checks: 0, never_checked: true },
      ]);
    } finally {
      await t.close();
    }
  });
});
