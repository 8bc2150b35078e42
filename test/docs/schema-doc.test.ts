/**
 * docs/schema.md is what the migrations make: regenerated in memory from a freshly migrated
 * database (scripts/schema-doc.ts) and compared byte for byte, so a new migration without a
 * regenerated document fails here rather than leaving the manual behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaMarkdown } from '../../scripts/schema-doc.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';

const root = join(import.meta.dirname, '..', '..');

describe('docs/schema.md', () => {
  const generated = schemaMarkdown();

  it('is current with the migrations', () => {
    const onDisk = readFileSync(join(root, 'docs', 'schema.md'), 'utf8');
    expect(
      onDisk === generated,
      'docs/schema.md is stale: run node --import tsx scripts/write-schema-doc.ts',
    ).toBe(true);
  });

  it('lists every migration and describes every rollup', () => {
    for (const m of MIGRATIONS) expect(generated).toContain(`| ${m.version} `);
    for (const table of ['metrics_daily', 'metrics_sessions', 'metrics_tool_session_hours'])
      expect(generated).toContain(`### \`${table}\``);
    expect(generated).not.toContain('metrics_latency_hourly`\n'); // dropped by migration 8
  });
});
