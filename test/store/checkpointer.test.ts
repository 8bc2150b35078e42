import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { BatchRecord } from '../../src/store/index.js';
import { connectionOf } from '../../src/store/connection.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function record(i: number): BatchRecord {
  return {
    keySha256: 'f'.repeat(64),
    keyPrefix: 'mp_live_ckpt',
    receivedMs: Date.now(),
    status: 202,
    bodyBytes: 100,
    userAgent: null,
    error: null,
    startups: [],
    rejections: [],
    calls: Array.from({ length: 30 }, (_, j) => ({
      payload: {
        v: 1 as const,
        type: 'call' as const,
        session_id: `s_${i}`,
        client_name: 'c',
        tool_name: `tool_${j % 5}`,
        started_at: new Date(1_800_000_000_000 + i * 1000 + j).toISOString(),
        duration_ms: j,
        outcome: 'ok' as const,
        response_bytes: 10,
        is_empty: false,
        args_hash: (i * 100 + j).toString(16).padStart(12, '0'),
      },
      startedMs: 1_800_000_000_000 + i * 1000 + j,
      extra: null,
    })),
  };
}

describe('background WAL checkpoints', () => {
  it('moves the WAL into the database from a worker, with auto-checkpoint off on the writer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-ckpt-'));
    dirs.push(dir);
    const path = join(dir, 'devtools.db');
    const store = openStore(path, { backgroundCheckpoints: true });
    try {
      expect(connectionOf(store).pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      const before = statSync(path).size;
      for (let i = 0; i < 60; i++) store.writeBatch(record(i));
      // The writer copies nothing back (auto-checkpoint is off and the WAL is far below its
      // bound): the worker's passive checkpoints grow the database file.
      const deadline = Date.now() + 10_000;
      while (statSync(path).size === before && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(statSync(path).size).toBeGreaterThan(before);
      expect(store.read.counts().calls).toBe(1800);
    } finally {
      store.close();
    }
  });

  it('refuses writes past the hard bound while another connection pins the WAL, then resumes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-ckpt-'));
    dirs.push(dir);
    const path = join(dir, 'devtools.db');
    const store = openStore(path, {
      backgroundCheckpoints: true,
      walBytes: { soft: 256 * 1024, hard: 1024 * 1024 },
    });
    const wal = () => statSync(`${path}-wal`).size;
    // A reader in another process (a `sqlite3` shell, say) holding one snapshot open.
    const reader = new Database(path, { readonly: true });
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM calls').get();
      let refused: unknown = null;
      let written = 0;
      for (let i = 0; i < 400 && !refused; i++) {
        try {
          store.writeBatch(record(i));
          written++;
        } catch (error) {
          refused = error;
        }
      }
      expect((refused as Error | null)?.name).toBe('WalBoundError');
      expect((refused as Error).message).toMatch(/past its bound/);
      // Nothing of the refused request was written, and the WAL stopped short of the bound
      // plus one transaction.
      expect(store.read.counts().calls).toBe(written * 30);
      expect(wal()).toBeLessThan(1024 * 1024 + 256 * 1024);
      // The reader finishes: the next write checkpoints, starts the log again from its first
      // frame and goes through; the file is trimmed back to the soft bound.
      reader.exec('COMMIT');
      store.writeBatch(record(1000));
      expect(store.read.counts().calls).toBe((written + 1) * 30);
      // (Had the log not restarted, that write would have gone after the MiB already there.)
      expect(wal()).toBeLessThanOrEqual(256 * 1024);
    } finally {
      reader.close();
      store.close();
    }
  }, 30_000);

  it('is off by default: short-lived commands keep SQLite auto-checkpointing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpulse-ckpt-'));
    dirs.push(dir);
    const store = openStore(join(dir, 'devtools.db'));
    expect(connectionOf(store).pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    store.close();
  });
});
