import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, startTestServer, type TestServer } from '../helpers/server.js';

type Wire = Record<string, unknown> & { type: string };

/** What the store must hold for a sent call: Go's omitted fields take their zero values. */
function expectedCall(p: Record<string, unknown>) {
  return {
    session_id: p.session_id,
    client_name: p.client_name,
    tool_name: p.tool_name,
    started_at: p.started_at,
    duration_ms: p.duration_ms ?? 0,
    outcome: p.outcome,
    response_bytes: p.response_bytes ?? 0,
    is_empty: p.is_empty ?? false,
    args_hash: p.args_hash,
  };
}

describe.each(['ts-sdk-exercise', 'go-style', 'dotnet-style'] as const)('capture %s', (name) => {
  let t: TestServer;
  const sent = JSON.parse(capture(name)) as { batch: Wire[] };
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('is accepted whole with a 202, an empty body and the count headers', async () => {
    const res = await t.ingest(capture(name));
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
    expect(res.headers.get('x-mcpulse-accepted')).toBe(String(sent.batch.length));
    expect(res.headers.get('x-mcpulse-rejected')).toBe('0');
  });

  it('reads back through /api exactly what was sent', async () => {
    const { calls } = await t.api('calls');
    const sentCalls = sent.batch.filter((p) => p.type === 'call');
    expect(calls.map((c) => ({ ...expectedCall({ ...c }), is_empty: c.is_empty }))).toEqual(
      sentCalls.map(expectedCall),
    );
    const { startups } = await t.api('startups');
    const sentStartups = sent.batch.filter((p) => p.type === 'startup');
    expect(
      startups.map((s) => ({
        session_id: s.session_id,
        client_name: s.client_name,
        tools: s.tools,
      })),
    ).toEqual(
      sentStartups.map((s) => ({
        session_id: s.session_id,
        client_name: s.client_name,
        tools: s.tools,
      })),
    );
  });

  it('groups the data under the key fingerprint, never the key', async () => {
    const { projects } = await t.api('projects');
    expect(projects).toHaveLength(1);
    expect(projects[0]!.key_prefix).toBe('mp_live_test');
    expect(JSON.stringify(projects)).not.toContain('key_sha256');
  });
});

describe('started_at forms', () => {
  it('parses 9-digit fractions, 7-digit +00:00, offsets and no fraction to UTC ms, keeping the text', async () => {
    const t = await startTestServer();
    try {
      await t.ingest(capture('go-style'));
      await t.ingest(capture('dotnet-style'));
      const { calls } = await t.api('calls');
      const byText = Object.fromEntries(calls.map((c) => [c.started_at, c.started_ms]));
      expect(byText['2026-12-02T10:00:00.123456789Z']).toBe(Date.UTC(2026, 11, 2, 10, 0, 0, 123));
      expect(byText['2026-12-02T10:00:01Z']).toBe(Date.UTC(2026, 11, 2, 10, 0, 1));
      expect(byText['2026-12-02T10:05:00.1234567+00:00']).toBe(
        Date.UTC(2026, 11, 2, 10, 5, 0, 123),
      );
      // 12:05:10.5 at +02:00 is 10:05:10.5 UTC: ten seconds after the previous call.
      expect(byText['2026-12-02T12:05:10.5000000+02:00']).toBe(
        Date.UTC(2026, 11, 2, 10, 5, 10, 500),
      );
    } finally {
      await t.close();
    }
  });
});
