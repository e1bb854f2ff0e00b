// The priority of the process's helper threads during a crawl (Linux only).
//
// Node starts four threads for V8's background work (TurboFan's compilations of hot functions,
// the concurrent parts of the garbage collector) whatever the number of cores (`--v8-pool-size`,
// default 4), plus a few idle ones (the delayed-task and signal threads). A crawl is one thread
// waiting on servers and on its writer: in the first seconds of `locator archive`, when the crawl
// and Node's HTTP code get hot, those four threads compile for about 0.6 s of CPU and, on a small
// machine, take the cores from the thread that sends the next request and from the writer. Their
// nice value raised, they run when a core has nothing else to do (bench/RESULTS.md, "The archive",
// fifth session: the test site archived at `--per-host 1` in 0.89x of the time on 2 cores).

import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much the helper threads' nice value is raised: enough to yield, not starved (+19 would be). */
export const HELPER_NICE = 10;

/**
 * Raises by `LOCATOR_HELPER_NICE` (default 10; 0 turns it off) the nice value of every thread of
 * this process that exists now except the main one, at most to 19, and returns their thread ids.
 * Threads started later (a Worker, libuv's pool) keep their priority. Nothing happens outside
 * Linux, where a thread's id is not a process id that setpriority(2) takes; a priority is only
 * ever lowered, and an error leaves the thread as it was.
 */
export function lowerHelperThreads(env: NodeJS.ProcessEnv = process.env): number[] {
  if (process.platform !== 'linux') return [];
  const setting = env.LOCATOR_HELPER_NICE;
  const nice = setting === undefined || setting === '' ? HELPER_NICE : Number(setting);
  if (!Number.isInteger(nice) || nice <= 0 || nice > 19) return [];
  let tids: number[];
  try {
    tids = readdirSync('/proc/self/task')
      .map(Number)
      .filter((t) => Number.isInteger(t) && t !== process.pid);
  } catch {
    return [];
  }
  const lowered: number[] = [];
  for (const tid of tids) {
    try {
      setPriority(tid, Math.min(19, getPriority(tid) + nice));
      lowered.push(tid);
    } catch {
      // A thread that ended meanwhile, or a priority this process may not set: left as it is.
    }
  }
  return lowered;
}
