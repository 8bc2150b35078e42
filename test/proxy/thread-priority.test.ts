/**
 * The telemetry thread's priority: on Linux, `idle` leaves the calling thread at nice 19 under
 * SCHED_IDLE and `background` at nice 10 under the normal policy — read back from the kernel.
 * Run in a child process, so the test runner's own threads keep their priority.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULE = join(import.meta.dirname, '..', '..', 'src', 'proxy', 'thread-priority.ts');

/** Lowers a fresh process's main thread to `level`; what it returned, nice and policy after. */
function lowered(level: 'idle' | 'background') {
  const script = `
    import { readFileSync } from 'node:fs';
    const { lowerThreadPriority } = await import(${JSON.stringify(MODULE)});
    const got = lowerThreadPriority(${JSON.stringify(level)});
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    console.log(JSON.stringify({ got, nice: Number(f[19 - 3]), policy: Number(f[41 - 3]) }));`;
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    {
      encoding: 'utf8',
    },
  );
  return JSON.parse(out) as { got: string; nice: number; policy: number };
}

const SCHED_OTHER = 0;
const SCHED_IDLE = 5;

describe.runIf(process.platform === 'linux')('lowering the telemetry thread', () => {
  it('idle: nice 19 and SCHED_IDLE', () => {
    expect(lowered('idle')).toEqual({ got: 'idle', nice: 19, policy: SCHED_IDLE });
  });

  it('background (it serves a dashboard too): nice 10, normal policy', () => {
    expect(lowered('background')).toEqual({ got: 'nice', nice: 10, policy: SCHED_OTHER });
  });
});
