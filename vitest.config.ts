import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/helpers/sequencer.js';

// CI asks for a JSON report beside the usual output (see .ci/run).
const jsonOutput = process.env.VITEST_JSON_OUTPUT;

/**
 * Files at once (issue 43): one per core. vitest's default is one fewer than the cores — a
 * single worker on the 2-core machines, where most of the slow files wait (on child processes,
 * servers, human-pace sleeps) rather than compute. Two per core starved the files that time
 * things (exit budgets, pacing) on a loaded 2-core machine. VITEST_MAX_WORKERS overrides it.
 */
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS) || Math.max(2, availableParallelism());

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Files share the cores now: a property test that takes 17 s alone (test/metrics/maintain)
    // took 24 s beside another file on a loaded 2-core machine. The limits only stop a hung
    // test; no test's own assertions or waits change.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers,
    sequence: { sequencer: SlowFirstSequencer },
    reporters: jsonOutput ? ['default', 'json'] : ['default'],
    outputFile: jsonOutput ? { json: jsonOutput } : undefined,
  },
});
