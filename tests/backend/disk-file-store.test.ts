import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskFileStore } from '../../server/storage/disk-file-store.ts';
import { scratchDir } from '../support/scratch.ts';

// How a stored file is written on the local disk (server/storage/disk-file-store.ts,
// durable-writes.ts): complete under its final name or not at all, private to the server, and
// made durable by threads of its own, so that the thread answering HTTP hands a small file over
// in one message instead of taking an event-loop turn for each of the nine steps.

// Not template.ts's: this file uses no database, and so is not run again on PostgreSQL.
const rootDir = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function newStore(): Promise<DiskFileStore> {
  const dir = await scratchDir('steward-disk-store-');
  dirs.push(dir);
  return new DiskFileStore(dir);
}

/** Every file under the store's objects, by name. */
async function filesOf(store: DiskFileStore): Promise<string[]> {
  const names: string[] = [];
  const objects = path.join(store.root, 'objects');
  for (const sub of await readdir(objects).catch(() => [])) {
    for (const name of await readdir(path.join(objects, sub))) names.push(`${sub}/${name}`);
  }
  return names.sort();
}

async function* chunksOf(parts: Uint8Array[], afterLast?: () => void, failAt?: number) {
  for (const [index, part] of parts.entries()) {
    if (index === failAt) throw new Error('the client went away');
    yield part;
  }
  afterLast?.();
}

const bytes = (size: number, seed: number) =>
  Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);

describe('DiskFileStore.write', () => {
  it('stores small and large bodies whole under their final name, readable by the server only', async () => {
    const store = await newStore();
    for (const parts of [
      [],
      [bytes(10, 1), bytes(5_000, 2)],
      [bytes(200_000, 3), bytes(200_000, 4), bytes(70_000, 5)],
    ]) {
      const whole = Buffer.concat(parts);
      const stored = await store.write(chunksOf(parts), Infinity);
      expect(stored.size).toBe(whole.length);
      expect(stored.sha256).toBe(createHash('sha256').update(whole).digest('hex'));
      const file = store.pathOf(stored.version);
      expect(Buffer.compare(await readFile(file), whole)).toBe(0);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    }
    expect((await filesOf(store)).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('leaves nothing behind when the body fails or is too large, small or large', async () => {
    const store = await newStore();
    const small = [bytes(100, 1), bytes(100, 2)];
    const large = [bytes(300_000, 1), bytes(300_000, 2)];
    await expect(store.write(chunksOf(small, undefined, 1), Infinity)).rejects.toThrow(
      'the client went away',
    );
    await expect(store.write(chunksOf(large, undefined, 1), Infinity)).rejects.toThrow(
      'the client went away',
    );
    await expect(store.write(chunksOf(small), 150)).rejects.toMatchObject({
      code: 'EntityTooLarge',
    });
    await expect(store.write(chunksOf(large), 400_000)).rejects.toMatchObject({
      code: 'EntityTooLarge',
    });
    expect(await filesOf(store)).toEqual([]);
  });

  it('makes a small file durable under its name while the thread that answers HTTP is busy', async () => {
    const store = await newStore();
    let busyUntil = 0;
    // Once the body has ended, this thread does nothing else for 0.5 s: a step that needs a
    // turn of its event loop cannot happen before then.
    const block = () =>
      setImmediate(() => {
        busyUntil = Date.now() + 500;
        while (Date.now() < busyUntil);
      });
    const stored = await store.write(chunksOf([bytes(4_000, 7)], block), Infinity);
    const renamed = await stat(store.pathOf(stored.version));
    expect(busyUntil).toBeGreaterThan(0);
    // A rename sets the file's change time: it was named before the thread was free again.
    expect(renamed.ctimeMs).toBeLessThan(busyUntil - 100);
  });
});

describe('the threads that write files', () => {
  it('keep a process alive while they write, and let it end once they are done', async () => {
    const dir = await scratchDir('steward-disk-store-');
    dirs.push(dir);
    // A process with nothing else to keep it alive (as a script, or the tests' main process
    // once its servers have closed) writes a small file (one job) and a large one (three), then
    // has nothing left to do: it must end by itself, and only after both files are written.
    const script = `
      import { DiskFileStore } from ${JSON.stringify(pathToFileURL(path.join(rootDir, 'server/storage/disk-file-store.ts')).href)};
      const store = new DiskFileStore(${JSON.stringify(dir)});
      async function* body(size) { yield new Uint8Array(size).fill(7); }
      void store.write(body(100), Infinity).then((stored) => console.log(stored.version));
      void store.write(body(600_000), Infinity).then((stored) => console.log(stored.version));
    `;
    const scriptFile = path.join(dir, 'write-two-files.mts');
    await writeFile(scriptFile, script);
    // The bound only tells a process that never ends from one that does.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', scriptFile],
      { cwd: rootDir, timeout: 20_000, killSignal: 'SIGKILL' },
    ).catch((error: Error & { killed?: boolean; code?: number; stderr?: string }) => {
      throw new Error(
        error.killed
          ? 'the process did not end by itself once its files were written'
          : `the process failed (${error.code}): ${error.stderr}`,
      );
    });
    const versions = stdout.trim().split('\n');
    expect(versions).toHaveLength(2);
    const store = new DiskFileStore(dir);
    const sizes = await Promise.all(
      versions.map(async (version) => (await stat(store.pathOf(version))).size),
    );
    expect(sizes.sort((a, b) => a - b)).toEqual([100, 600_000]);
  });
});
