import { write as writeCallback } from 'node:fs';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';

/**
 * The file system steps of a stored file's write (disk-file-store.ts), run on threads of their
 * own (THREAD_SOURCE) with synchronous calls. With `fs/promises` each step (open, write,
 * fsync, close, rename, and the directory's open, fsync and close) is a job of libuv's pool and
 * then a turn of the event loop that answers HTTP, one after the other: under load every turn
 * waits behind the other requests' work, and the nine of an upload added more to its time than
 * its two turns of the database (bench/RESULTS.md, "An upload's file in one message"). Here a
 * small file is one message, a large one two and its writes.
 */

/**
 * What each thread runs: the steps one after the other with the synchronous calls, each job
 * answered in one message. Given as source (a worker with `eval`), not as a file beside this
 * one: this module is also bundled into the background processes' tasks (an import writes
 * files), where no file would be found beside it.
 */
const THREAD_SOURCE = `
'use strict';
const { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } = require('node:fs');
const path = require('node:path');
const { parentPort } = require('node:worker_threads');

/** Makes a rename durable: the directory entry is flushed, not only the file's bytes. */
function syncDirectory(dir) {
  let fd;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the rename itself is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function writeAll(fd, bytes) {
  let offset = 0;
  while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset);
}

/** The file's bytes flushed, then its final name given and made durable; undone on failure. */
function finish(fd, temp, final) {
  try {
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, final);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncDirectory(path.dirname(final));
}

function create(temp) {
  mkdirSync(path.dirname(temp), { recursive: true });
  return openSync(temp, 'wx', 0o600);
}

const jobs = {
  /** A new temporary file, its directory made if need be: its descriptor. */
  open: ({ temp }) => create(temp),
  /** A whole file from bytes already received: every step in one go. */
  whole: ({ temp, final, bytes }) => {
    const fd = create(temp);
    try {
      writeAll(fd, bytes);
    } catch (error) {
      closeSync(fd);
      rmSync(temp, { force: true });
      throw error;
    }
    finish(fd, temp, final);
  },
  /** The end of a file written in pieces through \`fd\`. */
  finish: ({ fd, temp, final }) => finish(fd, temp, final),
  /** A file given up half-way: closed and deleted. */
  abandon: ({ fd, temp }) => {
    try {
      closeSync(fd);
    } finally {
      rmSync(temp, { force: true });
    }
  },
};

parentPort.on('message', ({ id, job, args }) => {
  try {
    const value = jobs[job](args);
    parentPort.postMessage({ id, ok: true, value });
  } catch (error) {
    parentPort.postMessage({
      id,
      ok: false,
      error: {
        message: String(error?.message ?? error),
        code: error?.code,
        syscall: error?.syscall,
      },
    });
  }
});
`;

/** Threads writing files; a slow disk's fsync holds one, not every upload. */
const THREADS = 2;

type Job =
  | { job: 'open'; args: { temp: string } }
  | { job: 'whole'; args: { temp: string; final: string; bytes: Uint8Array } }
  | { job: 'finish'; args: { fd: number; temp: string; final: string } }
  | { job: 'abandon'; args: { fd: number; temp: string } };

type Answer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { message: string; code?: string; syscall?: string } };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One thread and the jobs it has not answered yet. */
class FileSyncThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #gone = false;

  constructor(onGone: () => void) {
    this.#worker = new Worker(THREAD_SOURCE, { eval: true });
    this.#worker.on('message', (answer: Answer) => {
      const pending = this.#pending.get(answer.id);
      if (!pending) return;
      this.#pending.delete(answer.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if (answer.ok) pending.resolve(answer.value);
      else pending.reject(Object.assign(new Error(answer.error.message), answer.error));
    });
    const fail = (error: Error) => {
      if (this.#gone) return;
      this.#gone = true;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
      onGone();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`file sync thread exited (${code})`)));
    // A thread keeps the process alive while it has jobs to answer, and not once it has none
    // (ref() in run, unref() at the last answer). Unreferenced here, after the listeners: adding
    // a 'message' listener references the worker's port again, which had kept every process
    // that wrote a file alive after its work (the tests' main process 10 s past its end).
    this.#worker.unref();
  }

  get waiting(): number {
    return this.#pending.size;
  }

  run(job: Job): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      // The bytes of a whole file (in a buffer of their own) are handed over, not copied.
      const transfer = job.job === 'whole' ? [job.args.bytes.buffer as ArrayBuffer] : [];
      this.#worker.postMessage({ id, ...job }, transfer);
    });
  }
}

const threads: (FileSyncThread | undefined)[] = [];

/** The thread with the fewest jobs waiting, started when first needed. */
function thread(): FileSyncThread {
  let best: FileSyncThread | undefined;
  for (let i = 0; i < THREADS; i += 1) {
    const current = (threads[i] ??= new FileSyncThread(() => (threads[i] = undefined)));
    if (!best || current.waiting < best.waiting) best = current;
  }
  return best!;
}

/** Writes `chunks` to `temp` (its directory made), flushes it and renames it to `final`, durably. */
export async function writeWholeFile(
  temp: string,
  final: string,
  chunks: Uint8Array[],
): Promise<void> {
  // In one buffer of its own, which the thread then takes over.
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  await thread().run({ job: 'whole', args: { temp, final, bytes } });
}

/** A new temporary file for writing in pieces (its directory made): its descriptor. */
export async function openTempFile(temp: string): Promise<number> {
  return (await thread().run({ job: 'open', args: { temp } })) as number;
}

const writeFd = promisify(writeCallback);

/** Writes all of `chunk` at the end of the file `fd`. */
export async function appendChunk(fd: number, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await writeFd(fd, chunk, offset, chunk.byteLength - offset, null);
    offset += bytesWritten;
  }
}

/** Flushes, closes and renames a file written in pieces, durably; on failure it is deleted. */
export async function finishFile(fd: number, temp: string, final: string): Promise<void> {
  await thread().run({ job: 'finish', args: { fd, temp, final } });
}

/** Closes and deletes a file given up half-way. */
export async function abandonFile(fd: number, temp: string): Promise<void> {
  await thread().run({ job: 'abandon', args: { fd, temp } });
}
