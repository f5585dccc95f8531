import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 on Linux). */
let ticksPerSecond: number | undefined;

/**
 * CPU time a process has used so far (user and system, every thread), in microseconds, from
 * /proc/<pid>/stat; null where there is no /proc. A bench divides its growth by the requests
 * answered: on a shared machine that figure moves much less with the load than requests per
 * second do (to a resolution of one clock tick, 10 ms, so over a few seconds of requests).
 */
export async function processCpuMicros(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime and stime, fields 14 and 15
  return (ticks * 1_000_000) / ticksPerSecond;
}

/** CPU time (µs) of each thread of a process so far, by thread id; null where there is no /proc. */
export async function threadCpuMicros(
  pid: number | undefined,
): Promise<Map<number, number> | null> {
  if (pid === undefined) return null;
  const tids = await readdir(`/proc/${pid}/task`).catch(() => null);
  if (tids === null) return null;
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  const threads = new Map<number, number>();
  for (const tid of tids) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => null);
    if (stat === null) continue; // the thread ended meanwhile
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    threads.set(Number(tid), (ticks * 1_000_000) / ticksPerSecond);
  }
  return threads;
}

/** A request's CPU by thread (µs): see `cpuByThreadPerRequest`. */
export interface ThreadCpu {
  /** The process's main thread: HTTP, Hono, the REST code, the database client. */
  main: number;
  /** Its busiest other thread: on PGlite the database worker. */
  busiest: number;
  /** Every other thread: V8's helpers (GC, compilers), libuv's pool. */
  others: number;
}

/**
 * What each thread of process `pid` used between two readings of `threadCpuMicros`, per
 * request; a thread that ended between them is not counted (null without both readings).
 */
export function cpuByThreadPerRequest(
  pid: number | undefined,
  before: Map<number, number> | null,
  after: Map<number, number> | null,
  requests: number,
): ThreadCpu | null {
  if (pid === undefined || !before || !after || requests === 0) return null;
  let main = 0;
  const others: number[] = [];
  for (const [tid, now] of after) {
    const used = now - (before.get(tid) ?? 0);
    if (tid === pid) main = used;
    else others.push(used);
  }
  others.sort((a, b) => b - a);
  const rest = others.slice(1).reduce((sum, micros) => sum + micros, 0);
  return { main: main / requests, busiest: (others[0] ?? 0) / requests, others: rest / requests };
}
