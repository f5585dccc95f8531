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

/** The ids of `pid`'s child processes (every thread's), from /proc; [] where there is none. */
async function childPids(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const children: number[] = [];
  for (const task of tasks) {
    const list = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
    for (const child of list.trim().split(/\s+/)) if (child) children.push(Number(child));
  }
  return children;
}

/**
 * `processCpuMicros` of `pid` and every process under it: a server started through `tsx` runs
 * in a node process that tsx spawned. Null where there is no /proc.
 */
export async function processTreeCpuMicros(pid: number | undefined): Promise<number | null> {
  const own = await processCpuMicros(pid);
  if (own === null || pid === undefined) return own;
  let total = own;
  for (const child of await childPids(pid)) total += (await processTreeCpuMicros(child)) ?? 0;
  return total;
}
