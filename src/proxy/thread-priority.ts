/**
 * Giving the calling thread the lowest CPU priority there is — for the telemetry thread, which
 * must only ever use CPU that the relay, the client and the server leave idle. Best effort, and
 * Linux only: there a nice value and a scheduling policy belong to one thread; elsewhere they
 * belong to the whole process, which must not be slowed down.
 */
import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { basename } from 'node:path';
import { setFlagsFromString } from 'node:v8';

/** What the thread got: SCHED_IDLE, a nice value only, or nothing (not Linux, or not allowed). */
export type ThreadPriority = 'idle' | 'nice' | 'unchanged';

/**
 * Lowers the calling thread's priority: `idle` as far as it goes (nice 19, then SCHED_IDLE),
 * `background` to nice 10 only (a thread that also serves a UI must still get CPU on a busy
 * machine). A lowered priority cannot be raised again without privileges. Never throws.
 */
export function lowerThreadPriority(level: 'idle' | 'background' = 'idle'): ThreadPriority {
  if (process.platform !== 'linux') return 'unchanged';
  try {
    // pid 0 is the calling thread.
    setPriority(0, level === 'idle' ? 19 : 10);
  } catch {
    return 'unchanged';
  }
  if (level === 'background') return 'nice';
  // Nice 19 still gets a slice of a busy CPU, and once running may hold it for milliseconds
  // before a waking relay or server gets it back. SCHED_IDLE runs only on a CPU with nothing
  // else to run, and gives way at once to any task that wakes. Node has no call for it; util-
  // linux's chrt sets it on this thread's id (a few milliseconds, once, at the thread's start).
  try {
    const tid = basename(readlinkSync('/proc/thread-self'));
    const set = spawnSync('chrt', ['--idle', '--pid', '0', tid], {
      stdio: 'ignore',
      timeout: 2000,
    });
    return set.status === 0 ? 'idle' : 'nice';
  } catch {
    return 'nice';
  }
}

/**
 * Makes V8 do each isolate's compiling and garbage collection on that isolate's own thread
 * instead of on its shared helper threads. The helpers run at normal priority whichever thread
 * their work is for, so without this a telemetry thread on idle CPU still has its JIT and GC
 * done at full priority, beside the relay (measured: docs/benchmarks.md). Process-wide; call it
 * before starting the threads it is for. The relay's own thread barely allocates or compiles.
 */
export function keepV8WorkOnOwnThreads(): void {
  setFlagsFromString('--single-threaded');
}
