import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Where tests keep their data directories: under a directory of this test run on the machine's
 * RAM file system (/dev/shm, tmpfs) when there is one, else the system's temporary directory.
 *
 * Every test server loads its database from a template, which writes about 1,200 files; on the
 * ext4 disk of this machine creating them took about 0.9 s of CPU per server (most of it the
 * kernel's), on tmpfs a fraction of it, with the same POSIX semantics the tests rely on (modes,
 * renames, locks, files surviving a killed process). Test runs start a hundred servers.
 */
const ENV = 'STEWARD_TEST_SCRATCH';
const RAM = '/dev/shm';

/** Creates this run's directory on tmpfs (global set-up); returns its removal, or null. */
export async function createScratchRoot(): Promise<(() => Promise<void>) | null> {
  if (process.env[ENV]) return null;
  const usable = await stat(RAM).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!usable) return null;
  const root = await mkdtemp(path.join(RAM, 'steward-tests-')).catch(() => null);
  if (!root) return null;
  // Test files run in workers started after the global set-up: they inherit it.
  process.env[ENV] = root;
  return () => rm(root, { recursive: true, force: true });
}

/** A new empty directory for one test's data (`prefix` names it). */
export function scratchDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(process.env[ENV] ?? os.tmpdir(), prefix));
}
