import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

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
