import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import pg from 'pg';

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 on Linux). */
let ticksPerSecond: number | undefined;

/** A process's (or thread's) group and its CPU time so far (user and system) in µs. */
async function processStat(
  pid: number,
  file = `/proc/${pid}/stat`,
): Promise<{ group: number; micros: number } | null> {
  const stat = await readFile(file, 'utf8').catch(() => null);
  if (stat === null) return null;
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime and stime, fields 14 and 15
  return { group: Number(fields[2]), micros: (ticks * 1_000_000) / ticksPerSecond };
}

/** CPU used so far, per process: the server's process group and its database's backends. */
export interface CpuReading {
  server: Map<number, number>;
  /** The server's threads, by `pid/tid` (a process's main thread has tid = pid). */
  threads: Map<string, number>;
  backends: Map<number, number>;
}

/**
 * Reads the CPU time of every process in the server's process group (`tsx`, the server and
 * any process it starts) and, with `databaseUrl`, of the PostgreSQL backends serving that
 * database (`pg_stat_activity`, read through a connection of its own that is left out). Null
 * where there is no /proc.
 */
export async function readLoadCpu(
  serverGroup: number | undefined,
  databaseUrl?: string,
): Promise<CpuReading | null> {
  if (serverGroup === undefined) return null;
  const entries = await readdir('/proc').catch(() => null);
  if (entries === null) return null;
  const server = new Map<number, number>();
  const threads = new Map<string, number>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await processStat(Number(entry));
    if (stat?.group !== serverGroup) continue;
    server.set(Number(entry), stat.micros);
    for (const tid of await readdir(`/proc/${entry}/task`).catch(() => [])) {
      const thread = await processStat(Number(entry), `/proc/${entry}/task/${tid}/stat`);
      if (thread) threads.set(`${entry}/${tid}`, thread.micros);
    }
  }
  const backends = new Map<number, number>();
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>(
        `select pid from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`,
      );
      for (const { pid } of rows) {
        const stat = await processStat(pid);
        if (stat) backends.set(pid, stat.micros);
      }
    } finally {
      await client.end();
    }
  }
  return { server, threads, backends };
}

/** CPU used between two readings, per request, in µs: a process new since the first counts whole. */
export function cpuPerRequest(
  before: CpuReading | null,
  after: CpuReading | null,
  requests: number,
): { server: number; backends: number } | null {
  if (!before || !after || requests === 0) return null;
  const used = (first: Map<number, number>, last: Map<number, number>) => {
    let micros = 0;
    for (const [pid, now] of last) micros += now - (first.get(pid) ?? 0);
    return micros / requests;
  };
  return {
    server: used(before.server, after.server),
    backends: used(before.backends, after.backends),
  };
}

/**
 * Where the server's CPU per request went (µs): the busiest process's main thread (the one
 * that answers HTTP), its busiest other thread (the PGlite worker, on PGlite), its other
 * threads (V8's helpers, libuv's pool, the CPU pool), and every other process of the group
 * (`tsx`'s wrapper, the background processes that read files).
 */
export function cpuByThread(
  before: CpuReading | null,
  after: CpuReading | null,
  requests: number,
): { main: number; busiestOther: number; otherThreads: number; otherProcesses: number } | null {
  if (!before || !after || requests === 0) return null;
  const used = new Map<string, number>();
  for (const [key, now] of after.threads) used.set(key, now - (before.threads.get(key) ?? 0));
  const byProcess = new Map<string, number>();
  for (const [key, micros] of used) {
    const pid = key.split('/')[0]!;
    byProcess.set(pid, (byProcess.get(pid) ?? 0) + micros);
  }
  const busiest = [...byProcess].sort((a, b) => b[1] - a[1])[0]?.[0];
  let main = 0;
  let otherProcesses = 0;
  const others: number[] = [];
  for (const [key, micros] of used) {
    const [pid, tid] = key.split('/');
    if (pid !== busiest) otherProcesses += micros;
    else if (tid === pid) main += micros;
    else others.push(micros);
  }
  others.sort((a, b) => b - a);
  const busiestOther = others[0] ?? 0;
  const otherThreads = others.slice(1).reduce((sum, micros) => sum + micros, 0);
  return {
    main: main / requests,
    busiestOther: busiestOther / requests,
    otherThreads: otherThreads / requests,
    otherProcesses: otherProcesses / requests,
  };
}
