import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import pg from 'pg';

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 on Linux). */
let ticksPerSecond: number | undefined;

/** A process's group and its CPU time so far (user and system, every thread) in µs. */
async function processStat(pid: number): Promise<{ group: number; micros: number } | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
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
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await processStat(Number(entry));
    if (stat?.group === serverGroup) server.set(Number(entry), stat.micros);
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
  return { server, backends };
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
