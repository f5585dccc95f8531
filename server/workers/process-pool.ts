import { fork, type ChildProcess } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';
import { FairQueue, QueueTimeoutError } from '../db/fair-queue.ts';
import { CpuPoolBusyError } from './cpu-pool.ts';

/*
 * Background processes for work on members' files (text extraction and OCR, export and import
 * ZIPs): child processes, not threads, because only a process can be given a memory cap that
 * covers everything a decoder allocates. A worker thread's `resourceLimits` bound its V8 heap
 * alone, not the decoded pixels of a scan (ArrayBuffers), WebAssembly memory (OCR) or native
 * memory, and a thread that takes the machine's memory takes the server with it. `RLIMIT_AS`
 * (`ulimit -v`) cannot serve: V8 reserves about 10 GB of address space for every WebAssembly
 * memory, so a process under such a limit cannot run OCR at all.
 *
 * So each process is watched: its resident memory (`VmRSS`, and the peak `VmHWM` in case it
 * rose and fell between two looks) is read from /proc every `checkIntervalMs`, and past the
 * limit the process is killed; the task fails with `TaskMemoryLimitError` and the next task gets
 * a new process. The process also starts with a V8 heap limit and a WebAssembly memory limit
 * below the cap, which end runaway JavaScript or OCR at once, and it asks the kernel to be the
 * first to go should memory still run out (oom_score_adj). Checks before decoding (image sizes,
 * page counts, declared sizes in ZIPs; see text-extraction/) keep ordinary hostile files from
 * getting that far.
 */

/**
 * The tasks a pool runs, by name. A task takes one argument and returns one result, both plain
 * data (they cross processes by structured clone).
 */
export type TaskTable = Record<string, (args: never) => unknown>;

export interface ProcessPoolOptions {
  /**
   * The module whose `tasks` export is the pool's table of tasks (`server/file-tasks.ts`):
   * named by its address, so that the server's own process never loads the decoders, and the
   * pool knows no feature (the registry above the features names them).
   */
  tasksModule: URL;
  /** Processes running at once (each runs one task at a time). */
  processes: number;
  /** Resident memory one process may use, in bytes; past it the process is killed. */
  memoryLimitBytes: number;
  /** Added to the processes' scheduling priority (Unix `nice`): they yield the CPU to requests. */
  niceIncrement?: number;
  /** Longest a task waits for its turn before it is refused with `CpuPoolBusyError`. */
  maxWaitMs?: number;
  /** An idle process is ended after this long (its memory goes back to the machine). */
  idleTimeoutMs?: number;
  /** How often a working process's memory is read. */
  checkIntervalMs?: number;
}

/** The task needed more memory than a process may use: its process was killed. */
export class TaskMemoryLimitError extends Error {
  constructor(readonly limitBytes: number) {
    super(`reading it needs more than ${Math.round(limitBytes / 1024 ** 2)} MiB of memory`);
    this.name = 'TaskMemoryLimitError';
  }
}

/** The process running the task ended before it answered (a decoder crashed). */
export class TaskProcessExitError extends Error {
  constructor(detail: string) {
    super(`the process reading it ended unexpectedly (${detail})`);
    this.name = 'TaskProcessExitError';
  }
}

const ENTRY = new URL('./process-entry.mjs', import.meta.url);
const MIB = 1024 ** 2;
/** Bytes of a process's error output kept, for the log line of a crash. */
const STDERR_TAIL = 4096;

interface Reply {
  id?: number;
  ready?: boolean;
  result?: unknown;
  error?: { name: string; message: string; code?: string };
}

/** Resident memory of a process now and at its peak, in bytes; null when it cannot be read. */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number } | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  if (status === null) return null;
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** One child process and its channel. */
class BackgroundProcess {
  #stderr = '';
  #nextId = 0;
  /** Why the process was ended on purpose, for the task it was running. */
  #endedFor: unknown = null;
  readonly exited: Promise<void>;
  idleTimer: NodeJS.Timeout | undefined;

  private constructor(readonly child: ChildProcess) {
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-STDERR_TAIL);
    });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  static async start(options: Required<ProcessPoolOptions>): Promise<BackgroundProcess> {
    const heapMiB = Math.max(64, Math.floor((options.memoryLimitBytes * 0.75) / MIB));
    const wasmPages = Math.max(256, Math.floor(options.memoryLimitBytes / 65536));
    const child = fork(ENTRY, [options.tasksModule.href], {
      // Only these flags: not the server's loader flags, nor an inspector's.
      execArgv: [`--max-old-space-size=${heapMiB}`, `--wasm-max-mem-pages=${wasmPages}`],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    const started = new BackgroundProcess(child);
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: Reply) => {
        if (!message.ready) return;
        cleanup();
        resolve();
      };
      const onExit = (code: number | null, signal: string | null) => {
        cleanup();
        reject(
          new TaskProcessExitError(`${signal ?? `code ${code}`} at start: ${started.#stderr}`),
        );
      };
      const cleanup = () => {
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
    if (options.niceIncrement > 0) await started.#lowerPriority(options.niceIncrement);
    return started;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Lowers the priority of every thread the process has so far (Linux sets it per thread);
   * threads it starts later (OCR's) inherit it.
   */
  async #lowerPriority(increment: number): Promise<void> {
    const priority = Math.min(19, getPriority(process.pid) + increment);
    const threads = await readdir(`/proc/${this.pid}/task`).catch(() => [String(this.pid)]);
    for (const thread of threads) {
      try {
        setPriority(Number(thread), priority);
      } catch {
        // A thread that has just ended.
      }
    }
  }

  /** Neither ended nor being ended: a task may be given to it. */
  get usable(): boolean {
    return this.alive && this.#endedFor === null;
  }

  /** Kills the process; a task it runs fails with `reason`. */
  end(reason: unknown = new Error('the process was ended')): void {
    this.#endedFor ??= reason;
    if (this.alive) this.child.kill('SIGKILL');
  }

  /**
   * Runs one task; watches the memory meanwhile, and kills the process past the limit or when
   * `signal` aborts. Rejects with the task's own error (its name, message and code), or with
   * why the process ended.
   */
  run(
    name: string,
    args: unknown,
    options: { memoryLimitBytes: number; checkIntervalMs: number; signal?: AbortSignal },
  ): Promise<unknown> {
    const id = (this.#nextId += 1);
    const { child } = this;
    return new Promise((resolve, reject) => {
      let reading = false;
      const watch = setInterval(() => {
        if (reading) return;
        reading = true;
        void memoryOf(this.pid)
          .then((memory) => {
            if (memory && Math.max(memory.rss, memory.peak) > options.memoryLimitBytes) {
              this.end(new TaskMemoryLimitError(options.memoryLimitBytes));
            }
          })
          .finally(() => (reading = false));
      }, options.checkIntervalMs);
      const onAbort = () => this.end(options.signal!.reason);
      const done = () => {
        clearInterval(watch);
        options.signal?.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const onMessage = (message: Reply) => {
        if (message.id !== id) return;
        done();
        if (message.error) {
          const error = Object.assign(new Error(message.error.message), {
            name: message.error.name,
            ...(message.error.code ? { code: message.error.code } : {}),
          });
          reject(error);
        } else {
          resolve(message.result);
        }
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        done();
        if (this.#endedFor) return reject(this.#endedFor);
        // V8 aborts on a heap past --max-old-space-size; the kernel kills on no memory at all.
        if (
          signal === 'SIGABRT' ||
          signal === 'SIGKILL' ||
          /out of memory|allocation failed/i.test(this.#stderr)
        ) {
          return reject(new TaskMemoryLimitError(options.memoryLimitBytes));
        }
        const tail = this.#stderr.trim().split('\n').slice(-3).join(' | ');
        console.error(`workers: background process ${this.pid} ended during ${name}: ${tail}`);
        reject(new TaskProcessExitError(signal ?? `code ${code}`));
      };
      // A process ended before its task came (it died while idle, or is being ended) would
      // never answer nor exit again.
      if (!this.usable) return reject(this.#endedFor ?? new TaskProcessExitError('it had ended'));
      child.on('message', onMessage);
      child.once('exit', onExit);
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      // The peak so far belongs to earlier tasks: count this one's alone (Linux's clear_refs).
      void writeFile(`/proc/${this.pid}/clear_refs`, '5')
        .catch(() => undefined)
        .then(() =>
          // With a callback, a channel that has closed meanwhile (the process died between two
          // tasks, or was ended by the watch or the signal just now) is this task's failure;
          // without one, Node emits it as an 'error' nobody listens to, which ends the server.
          child.send({ id, name, args }, (error) => {
            if (!error) return;
            const reason = this.#endedFor ?? new TaskProcessExitError('its channel closed');
            done();
            this.end(reason);
            reject(reason);
          }),
        );
    });
  }
}

/**
 * A small pool of background processes for the tasks of `tasksModule`, `run` typed by its table
 * (`Tasks`); code that runs tasks names the ones it needs (`ProcessPool<{ extractText: … }>`).
 * Tasks take turns by caller (the request scope's lane: a job's organisation), as at the
 * database and in the CPU pool: one organisation's fifty uploads delay another's extraction by
 * one task, not fifty. Processes start on first use and end after a while idle.
 */
export class ProcessPool<Tasks extends TaskTable> {
  readonly #options: Required<ProcessPoolOptions>;
  readonly #turns: FairQueue;
  readonly #idle: BackgroundProcess[] = [];
  readonly #all = new Set<BackgroundProcess>();
  #closed = false;
  #completed = 0;

  constructor(options: ProcessPoolOptions) {
    this.#options = {
      niceIncrement: 0,
      maxWaitMs: Number.POSITIVE_INFINITY,
      idleTimeoutMs: 60_000,
      checkIntervalMs: 25,
      ...options,
    };
    this.#turns = new FairQueue({ concurrency: options.processes, perLane: 1 });
  }

  /** The memory one process may use, in bytes. */
  get memoryLimitBytes(): number {
    return this.#options.memoryLimitBytes;
  }

  /** Tasks finished since the pool started (answered, with a result or the task's error). */
  get completed(): number {
    return this.#completed;
  }

  /** Process ids of the running processes (for tests and measurements). */
  get pids(): number[] {
    return [...this.#all].filter((p) => p.alive).map((p) => p.pid);
  }

  /**
   * Runs the task `name` in a background process, when it is the caller's turn. Rejects with
   * `TaskMemoryLimitError` when the task passed the memory limit, `TaskProcessExitError` when
   * its process crashed, `signal.reason` when `signal` aborted (the process is killed), the
   * task's own error otherwise, and `CpuPoolBusyError` when its turn did not come in time.
   */
  async run<N extends keyof Tasks & string>(
    name: N,
    args: Parameters<Tasks[N]>[0],
    options: {
      /** Whose turn the task takes: the lane of the request or job it is for. */
      lane: string;
      signal?: AbortSignal;
      maxWaitMs?: number;
    },
  ): Promise<Awaited<ReturnType<Tasks[N]>>> {
    const { lane } = options;
    try {
      return (await this.#turns.run(
        lane,
        () => this.#runNow(name, args, options.signal),
        options.maxWaitMs ?? this.#options.maxWaitMs,
      )) as Awaited<ReturnType<Tasks[N]>>;
    } catch (error) {
      if (error instanceof QueueTimeoutError) throw new CpuPoolBusyError();
      throw error;
    }
  }

  async #runNow(name: string, args: unknown, signal?: AbortSignal): Promise<unknown> {
    signal?.throwIfAborted();
    if (this.#closed) throw new Error('The background processes have stopped');
    const worker = await this.#take();
    try {
      const result = await worker.run(name, args, {
        memoryLimitBytes: this.#options.memoryLimitBytes,
        checkIntervalMs: this.#options.checkIntervalMs,
        signal,
      });
      this.#completed += 1;
      return result;
    } catch (error) {
      if (worker.alive) this.#completed += 1;
      throw error;
    } finally {
      await this.#giveBack(worker);
    }
  }

  async #take(): Promise<BackgroundProcess> {
    for (let idle = this.#idle.pop(); idle; idle = this.#idle.pop()) {
      clearTimeout(idle.idleTimer);
      if (idle.usable) return idle;
    }
    const started = await BackgroundProcess.start(this.#options);
    this.#all.add(started);
    void started.exited.then(() => {
      this.#all.delete(started);
      const index = this.#idle.indexOf(started);
      if (index !== -1) this.#idle.splice(index, 1);
    });
    return started;
  }

  /**
   * Keeps a process for the next task, unless it died, or holds more than half its limit
   * (memory a decoder kept would count against the next file): then it is ended and the next
   * task gets a new one.
   */
  async #giveBack(worker: BackgroundProcess): Promise<void> {
    if (!worker.usable) return;
    const memory = await memoryOf(worker.pid);
    // It may have died while its memory was read: a dead process kept would be given a task.
    if (!worker.usable) return;
    if (this.#closed || (memory && memory.rss > this.#options.memoryLimitBytes / 2)) {
      worker.end();
      return;
    }
    // Out of the idle list as it is ended, not when its exit is heard: a task taking it between
    // the two would be sent into a closing channel.
    worker.idleTimer = setTimeout(() => {
      const index = this.#idle.indexOf(worker);
      if (index !== -1) this.#idle.splice(index, 1);
      worker.end();
    }, this.#options.idleTimeoutMs);
    worker.idleTimer.unref();
    this.#idle.push(worker);
  }

  /** Ends every process (a running task fails: jobs are stopped before the pool is closed). */
  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#all];
    for (const worker of all) {
      clearTimeout(worker.idleTimer);
      worker.end(new Error('the server stops'));
    }
    await Promise.all(all.map((worker) => worker.exited));
  }
}
