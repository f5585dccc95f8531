import { readFileSync } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';

/**
 * Two PGlite instances on one data directory open without any error and silently lose data
 * (measured: see docs/architecture.md). This lock makes a second server fail at start-up
 * instead: a file beside the directory naming its owner, created exclusively. A lock whose
 * owner no longer runs (a crash, a SIGKILL) is taken over; the owner is a process id plus the
 * process's start time where the system tells it (Linux), so a new process that happens to get
 * the same id (a restarted container) is not mistaken for the owner.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const file = `${dir}.lock`;
  if (heldHere.has(file)) throw inUse(dir, process.pid);
  const me = ownerId(process.pid);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(me);
      await handle.close();
      heldHere.add(file);
      return async () => {
        heldHere.delete(file);
        await rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const recorded = (await readFile(file, 'utf8').catch(() => '')).trim();
    const pid = Number(recorded.split(' ')[0]);
    if (Number.isInteger(pid) && pid > 0 && recorded !== me && ownerId(pid) === recorded) {
      throw inUse(dir, pid);
    }
    // Its owner is gone: take it over.
    await rm(file, { force: true });
  }
  throw new Error(`could not lock ${dir}`);
}

/** Lock files this process holds. */
const heldHere = new Set<string>();

/** The data directory is held by a running process (a server, or a backup of a stopped one). */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `${dir} is in use by process ${pid}: stop that server first (two servers on one data directory would corrupt it)`,
    );
  }
}

const inUse = (dir: string, pid: number) => new DataDirInUseError(dir, pid);

/**
 * `pid start-time` of a running process (`pid` alone where /proc is missing), or '' when no
 * process has that id.
 */
function ownerId(pid: number): string {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return '';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces): state is 3rd, start time 22nd.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A killed process that its parent has not reaped yet (a zombie) holds nothing any more.
    if (fields[0] === 'Z' || fields[0] === 'X') return '';
    const startTime = fields[19];
    return startTime ? `${pid} ${startTime}` : String(pid);
  } catch {
    return String(pid);
  }
}
