#!/usr/bin/env node
/**
 * `npm test` (issue 43): every check the README's test command runs, at once where nothing
 * orders them. The three typechecks, eslint, prettier and the two builds (core, app) start
 * together; the vitest suite starts once the app build it serves is written; Playwright once
 * both builds are written and vitest is done: each runner already keeps the cores busy (a
 * worker per core), the two together on 2 cores starve the tests that time things, and the
 * vitest files that make network namespaces (test/helpers/netns.ts) add and remove veth
 * interfaces, which Chromium answers with net::ERR_NETWORK_CHANGED on a page's requests.
 * TEST_OVERLAP=1 starts Playwright beside vitest anyway (measured on a loaded 2-core machine:
 * 17 min instead of 23, with those failures).
 *
 * Each step's lines are printed as they come, prefixed with its name, and a table of what
 * passed and how long it took closes the run. The exit code is 1 when any step failed (a step
 * whose prerequisite failed is not started and counts as failed), else 0. TEST_SERIAL=1 runs
 * the steps one after another instead, in the order listed, stopping at the first failure, as
 * `npm test` did before.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * name → npm script; `after`: the steps that must pass before it starts; `waits`: steps that
 * only must have ended (passed or not).
 */
const STEPS = [
  { name: 'typecheck:node', script: 'typecheck:node', after: [] },
  { name: 'typecheck:e2e', script: 'typecheck:e2e', after: [] },
  { name: 'typecheck:renderer', script: 'typecheck:renderer', after: [] },
  { name: 'lint:eslint', script: 'lint:eslint', after: [] },
  { name: 'lint:prettier', script: 'lint:prettier', after: [] },
  { name: 'build:core', script: 'build:core', after: [] },
  // Some vitest files serve or launch the app build (out/renderer, out/main), and some run the
  // built CLI (dist/: the commands the product suggests, test/docs/suggested-commands.test.ts).
  { name: 'build:app', script: 'build:app', after: [] },
  { name: 'vitest', script: 'test:unit', after: ['build:core', 'build:app'] },
  {
    name: 'playwright',
    script: 'test:e2e',
    after: ['build:core', 'build:app'],
    waits: process.env.TEST_OVERLAP === '1' ? [] : ['vitest'],
  },
];

const serial = process.env.TEST_SERIAL === '1';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const width = Math.max(...STEPS.map((s) => s.name.length));
const t0 = Date.now();
/** name → promise of { ok, seconds } */
const results = new Map();

function run(step) {
  return new Promise((resolve) => {
    const started = Date.now();
    const tag = `[${step.name.padEnd(width)}]`;
    console.log(`${tag} npm run ${step.script}`);
    const child = spawn(npm, ['run', '--silent', step.script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => console.log(`${tag} ${line}`));
    child.on('close', (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      const ok = code === 0;
      console.log(
        `${tag} ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds.toFixed(0)} s`,
      );
      resolve({ ok, seconds });
    });
  });
}

async function start(step) {
  for (const dep of step.waits ?? []) await results.get(dep);
  for (const dep of step.after) {
    const r = await results.get(dep);
    if (!r.ok) {
      console.log(`[${step.name.padEnd(width)}] not run: ${dep} failed`);
      return { ok: false, seconds: 0, skipped: true };
    }
  }
  return run(step);
}

if (serial) {
  for (const step of STEPS) {
    const r = await start(step);
    results.set(step.name, Promise.resolve(r));
    if (!r.ok) break;
  }
} else {
  for (const step of STEPS) results.set(step.name, start(step));
}

const outcomes = await Promise.all(
  STEPS.map(async (step) => ({
    step,
    r: (await results.get(step.name)) ?? { ok: false, seconds: 0, skipped: true },
  })),
);
console.log(`\n${'step'.padEnd(width)}  result   seconds`);
let failed = false;
for (const { step, r } of outcomes) {
  failed ||= !r.ok;
  const status = r.skipped ? 'not run' : r.ok ? 'passed' : 'FAILED';
  console.log(
    `${step.name.padEnd(width)}  ${status.padEnd(7)}  ${r.seconds.toFixed(0).padStart(7)}`,
  );
}
console.log(
  `${'total'.padEnd(width)}  ${failed ? 'FAILED ' : 'passed '}  ${((Date.now() - t0) / 1000).toFixed(0).padStart(7)}`,
);
process.exit(failed ? 1 : 0);
