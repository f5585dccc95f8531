import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../server/db/data-dir-lock.ts';

// Two PGlite instances on one data directory silently lose data: a second server must refuse
// to start, while a lock left by a crashed server must not keep the next one out.
describe('data directory lock', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'steward-lock-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('refuses a second open in the same process until the first lets go', async () => {
    const dir = path.join(root, 'same-process');
    const unlock = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(`${dir} is in use by process ${process.pid}`);
    await unlock();
    const again = await lockDataDir(dir);
    await again();
  });

  it('refuses a directory another running server holds', async () => {
    const dir = path.join(root, 'other-process');
    const script = `
      import { lockDataDir } from ${JSON.stringify(path.resolve('server/db/data-dir-lock.ts'))};
      await lockDataDir(${JSON.stringify(dir)});
      console.log('locked');
      setInterval(() => {}, 1000);`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on(
          'data',
          (chunk: Buffer) => chunk.toString().includes('locked') && resolve(),
        );
        child.once('exit', () => reject(new Error('the child exited before locking')));
      });
      await expect(lockDataDir(dir)).rejects.toThrow(`is in use by process ${child.pid}`);
    } finally {
      child.kill('SIGKILL');
    }
    // Once that process is gone (killed, not stopped cleanly), its lock is taken over.
    await new Promise((resolve) => child.once('exit', resolve));
    const unlock = await lockDataDir(dir);
    expect((await readFile(`${dir}.lock`, 'utf8')).split(' ')[0]).toBe(String(process.pid));
    await unlock();
  });

  it('takes over a lock naming a running process that is not its owner (a reused id)', async () => {
    const dir = path.join(root, 'reused-id');
    // The parent process runs, but it did not start at the recorded time.
    await writeFile(`${dir}.lock`, `${process.ppid} 1`);
    const unlock = await lockDataDir(dir);
    await unlock();
  });
});
