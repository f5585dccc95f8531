import { Piscina } from 'piscina';
import { FairQueue, QueueTimeoutError } from '../db/fair-queue.ts';
import type { CpuTaskName, CpuTasks } from './tasks.ts';

export interface CpuPoolOptions {
  /** Threads kept running (started with the pool). */
  threads: number;
  /**
   * Tasks that may wait for a thread; beyond that `run` refuses with `CpuPoolBusyError` at
   * once, so a flood of requests cannot pile up unbounded work and memory.
   */
  maxQueue?: number;
  /** Longest a task waits for a thread before it is refused with `CpuPoolBusyError`. */
  maxWaitMs?: number;
  /**
   * Added to the threads' scheduling priority (Unix `nice`): background work yields the CPU
   * to the threads that answer requests.
   */
  niceIncrement?: number;
}

/** The pool's queue is full: the caller should answer "try again shortly" (503). */
export class CpuPoolBusyError extends Error {
  /** The `Retry-After` to answer with: a full queue drains within seconds. */
  readonly retryAfterSeconds = 5;
  constructor() {
    super('The server is busy; please try again shortly');
  }
}

/** A task's argument and result types, from its entry in the registry. */
export type CpuTaskArgs<N extends CpuTaskName> = Parameters<CpuTasks[N]>[0];
export type CpuTaskResult<N extends CpuTaskName> = Awaited<ReturnType<CpuTasks[N]>>;

/**
 * A pool of worker threads (piscina) for CPU-heavy work, with the tasks named in `tasks.ts` and
 * `run` typed by that registry: work a request waits for (password hashing). Work on members'
 * files (text extraction, OCR, ZIPs) runs in background processes instead (process-pool.ts),
 * at a lower priority and under a memory cap that a thread cannot have.
 */
export class CpuPool {
  private readonly piscina: Piscina;
  private readonly maxQueue: number;
  private readonly maxWaitMs: number;
  /**
   * Tasks take turns by caller (the request scope's lane), as at the database: one address
   * signing up forty accounts at once delays someone else's sign-in by one hash, not forty.
   */
  private readonly turns: FairQueue;

  constructor(options: CpuPoolOptions) {
    this.maxQueue = options.maxQueue ?? 256;
    this.maxWaitMs = options.maxWaitMs ?? 10_000;
    this.turns = new FairQueue({ concurrency: options.threads, perLane: 1 });
    this.piscina = new Piscina({
      filename: new URL('./worker.mjs', import.meta.url).href,
      minThreads: options.threads,
      maxThreads: options.threads,
      // The threads are started once and kept: starting one (with its TypeScript loader)
      // costs about 0.3 s, which no request should wait for.
      idleTimeout: Number.POSITIVE_INFINITY,
      ...(options.niceIncrement ? { niceIncrement: options.niceIncrement } : {}),
    });
  }

  /**
   * Runs the task `name` in a pool thread, when it is the caller's turn; rejects with
   * `CpuPoolBusyError` when the queue is full or the turn does not come within `maxWaitMs`.
   * When `signal` aborts, the task is dropped from the queue or, if it is running, its thread is
   * stopped (and replaced): the only way to bound work that never yields.
   */
  async run<N extends CpuTaskName>(
    name: N,
    args: CpuTaskArgs<N>,
    options: {
      /** Whose turn the task takes: the lane of the request or job it is for. */
      lane: string;
      signal?: AbortSignal;
      maxWaitMs?: number;
    },
  ): Promise<CpuTaskResult<N>> {
    if (this.turns.waiting >= this.maxQueue) throw new CpuPoolBusyError();
    const { lane } = options;
    try {
      return await this.turns.run(
        lane,
        () =>
          this.piscina.run(
            { name, args },
            options.signal ? { signal: options.signal } : {},
          ) as Promise<CpuTaskResult<N>>,
        options.maxWaitMs ?? this.maxWaitMs,
      );
    } catch (error) {
      if (error instanceof QueueTimeoutError) throw new CpuPoolBusyError();
      throw error;
    }
  }

  /** Tasks finished since the pool started. */
  get completed(): number {
    return this.piscina.completed;
  }

  /** Threads of the pool (none of them is the main thread). */
  get threads(): number {
    return this.piscina.threads.length;
  }

  /** Waits for the running tasks, then ends the threads. */
  close(): Promise<void> {
    return this.piscina.close();
  }
}
