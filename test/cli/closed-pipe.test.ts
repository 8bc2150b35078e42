/**
 * Every command that prints exits quietly when its reader closes the pipe early
 * (`… | head -c 64`): no EPIPE stack trace, exit 0. Real processes and a real shell pipe; each
 * command prints well past a pipe buffer (64 KiB), so it is still writing when `head` leaves.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { openStore } from '../../src/store/index.js';
import { createIngest, LiveBus } from '../../src/ingest/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;

/** Runs `node CLI args | head -c 64` in bash; the CLI's own exit code and its stderr. */
function throughClosedPipe(args: string[], stdinFile?: string): { code: number; stderr: string } {
  const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const input = stdinFile ? `< '${stdinFile}'` : '< /dev/null';
  const errFile = join(dir, `stderr-${args[0]}.txt`);
  const script = `'${process.execPath}' --import tsx '${CLI}' ${quoted} ${input} 2>'${errFile}' | head -c 64 >/dev/null; echo "\${PIPESTATUS[0]}"; cat '${errFile}' >&2`;
  const run = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8' });
  return { code: Number(run.stdout.trim()), stderr: run.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'closed-pipe-'));
  // 3000 calls: an export far past one pipe buffer.
  const store = openStore(join(dir, 'db.sqlite'));
  const ingest = createIngest({ store, bus: new LiveBus() });
  const batch = Array.from({ length: 3000 }, (_, i) => ({
    v: 1,
    type: 'call',
    session_id: `s_${String(i % 40).padStart(12, '0')}`,
    client_name: 'pipe-test',
    tool_name: `tool_${i % 7}`,
    started_at: new Date(Date.UTC(2026, 11, 1) + i * 1000).toISOString(),
    duration_ms: i % 90,
    outcome: 'ok',
    response_bytes: 100,
    is_empty: false,
    args_hash: '44136fa355b3',
  }));
  for (let i = 0; i < batch.length; i += 500) {
    const answer = ingest({
      authorization: 'Bearer mp_live_pipe',
      contentType: 'application/json',
      userAgent: 'test',
      body: Buffer.from(JSON.stringify({ batch: batch.slice(i, i + 500) })),
      receivedMs: Date.now(),
    });
    expect(answer.status).toBe(202);
  }
  store.close();
  // 4000 inputs for `hash --jsonl`: each answer line is a few hundred bytes.
  writeFileSync(
    join(dir, 'inputs.jsonl'),
    Array.from({ length: 4000 }, (_, i) => JSON.stringify({ n: i, text: 'x'.repeat(i % 50) })).join(
      '\n',
    ),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a reader that closes the pipe early', () => {
  const cases: { name: string; args: () => string[]; stdin?: () => string }[] = [
    {
      name: 'conformance --json',
      args: () => ['conformance', 'fixtures/sdk-vectors.json', '--json'],
    },
    { name: 'conformance (text)', args: () => ['conformance', 'fixtures/sdk-vectors.json'] },
    {
      name: 'hash --jsonl',
      args: () => ['hash', '--jsonl'],
      stdin: () => join(dir, 'inputs.jsonl'),
    },
    { name: 'export', args: () => ['export', '--db', join(dir, 'db.sqlite')] },
    { name: 'tail --last', args: () => ['tail', '--last', '3000', '--db', join(dir, 'db.sqlite')] },
  ];
  it.each(cases)(
    '$name exits 0 with no stack trace',
    ({ args, stdin }) => {
      const { code, stderr } = throughClosedPipe(args(), stdin?.());
      expect(stderr).not.toMatch(/EPIPE|Error:|at .*\(/);
      expect(code).toBe(0);
    },
    30_000,
  );
});
