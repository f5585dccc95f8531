import { readdir, readlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * The ids of other processes holding a file open under `dir`, from Linux's `/proc`; null where
 * there is no `/proc` to ask. PGlite takes no lock on its data directory, and a second process
 * opening it while a server runs could corrupt it, so the check asks before opening.
 */
export async function processesUsing(dir: string): Promise<number[] | null> {
  const pids = await readdir('/proc').catch(() => null);
  if (pids === null) return null;
  const inside = path.resolve(dir) + path.sep;
  const users: number[] = [];
  for (const pid of pids) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    // Other users' processes (EACCES) and processes that just exited (ENOENT) are skipped.
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      if (target.startsWith(inside)) {
        users.push(Number(pid));
        break;
      }
    }
  }
  return users;
}
