/** A task waited too long for its turn (the database is busy or restarting). */
export class QueueTimeoutError extends Error {
  constructor(readonly waitedMs: number) {
    super(`waited ${Math.round(waitedMs)} ms for the database`);
    this.name = 'QueueTimeoutError';
  }
}

export interface FairQueueOptions {
  /** Tasks running at once, all lanes together. */
  concurrency: number;
  /** Tasks of one lane running at once; the others of that lane wait their turn. */
  perLane: number;
  /**
   * A lane two of whose last three tasks ran this long or longer runs one task at a time for
   * the next `heavyWindowMs`: a caller whose statements each keep a core busy for long cannot
   * hold several cores of the database server, while quick callers keep their `perLane`. One
   * long task alone is not enough: on a busy machine any task now and then waits that long for
   * CPU or for the event loop, and halving a quick caller's places for ten seconds over it
   * halved its reads (bench/RESULTS.md, "The stack in front of every route").
   */
  heavyTaskMs?: number;
  heavyWindowMs?: number;
}

interface Waiting<Host> {
  start: () => void;
  timer: NodeJS.Timeout | undefined;
  queuedAt: number;
  /** Runs the task alongside another task of its lane instead (`joinNext`), when it may. */
  join: ((host: Host) => void) | undefined;
}

/** Keeps a task's place taken until `until` settles too, after the task's own result. */
export type HoldPlace = (until: Promise<unknown>) => void;

/**
 * Runs tasks with bounded concurrency, taking turns between lanes: the next task comes from the
 * waiting lane served least recently (a lane with nothing running or waiting starts afresh), so
 * one lane with a thousand queued requests delays another lane's request by at most one task
 * per busy lane, never by its whole backlog. Within a lane, tasks run in the order they came.
 */
export class FairQueue<Host = never> {
  #running = 0;
  #starts = 0;
  readonly #runningPerLane = new Map<string, number>();
  /** Lanes with waiting tasks, in the order they began waiting. */
  readonly #lanes = new Map<string, Waiting<Host>[]>();
  /** When each busy lane last started a task (a count of starts): the lowest goes next. */
  readonly #lastStart = new Map<string, number>();
  /** Lanes that ran heavy tasks lately, and until when they run one task at a time. */
  readonly #heavyUntil = new Map<string, number>();
  /** Per lane, whether each of its last three tasks ran long (newest last), and when. */
  readonly #recent = new Map<string, { long: boolean[]; at: number }>();

  constructor(private readonly options: FairQueueOptions) {}

  /** Tasks waiting for their turn, all lanes together. */
  get waiting(): number {
    let count = 0;
    for (const tasks of this.#lanes.values()) count += tasks.length;
    return count;
  }

  /**
   * Runs `task` when it is `lane`'s turn. Rejects with `QueueTimeoutError` when it has not
   * started within `maxWaitMs` (it then never runs). The task may keep its place taken after
   * its result (`hold`), for work it shares with others of its lane (`joinNext`). With `join`,
   * the task may instead be taken out of the queue by a running task of its lane and run
   * alongside it, on what that task holds (`joinNext`).
   */
  run<T>(
    lane: string,
    task: (hold: HoldPlace) => Promise<T>,
    maxWaitMs = Infinity,
    join?: (host: Host) => Promise<T>,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queuedAt = performance.now();
      const waiting: Waiting<Host> = {
        queuedAt,
        timer: undefined,
        join: join && ((host) => void join(host).then(resolve, reject)),
        start: () => {
          this.#running += 1;
          this.#runningPerLane.set(lane, (this.#runningPerLane.get(lane) ?? 0) + 1);
          const startedAt = performance.now();
          const held: Promise<unknown>[] = [];
          const result = task((until) => held.push(until));
          result.then(resolve, reject);
          // The task's own time, not the time it kept its place for others (`hold`).
          const noteTime = () => this.noteDuration(lane, performance.now() - startedAt);
          result.then(noteTime, noteTime);
          void settled(result, held).then(() => {
            this.#running -= 1;
            const left = this.#runningPerLane.get(lane)! - 1;
            if (left > 0) this.#runningPerLane.set(lane, left);
            else {
              this.#runningPerLane.delete(lane);
              if (!this.#lanes.has(lane)) this.#lastStart.delete(lane);
            }
            this.#dispatch();
          });
        },
      };
      if (Number.isFinite(maxWaitMs)) {
        waiting.timer = setTimeout(() => {
          const tasks = this.#lanes.get(lane);
          const index = tasks?.indexOf(waiting) ?? -1;
          if (index === -1) return;
          tasks!.splice(index, 1);
          if (tasks!.length === 0) {
            this.#lanes.delete(lane);
            if (!this.#runningPerLane.has(lane)) this.#lastStart.delete(lane);
          }
          reject(new QueueTimeoutError(performance.now() - queuedAt));
        }, maxWaitMs);
        waiting.timer.unref();
      }
      const tasks = this.#lanes.get(lane);
      if (tasks) tasks.push(waiting);
      else this.#lanes.set(lane, [waiting]);
      this.#dispatch();
    });
  }

  #dispatch(): void {
    while (this.#running < this.options.concurrency) {
      const lane = this.#nextLane();
      if (lane === undefined) return;
      const tasks = this.#lanes.get(lane)!;
      const next = tasks.shift()!;
      if (tasks.length === 0) this.#lanes.delete(lane);
      this.#lastStart.set(lane, (this.#starts += 1));
      if (next.timer) clearTimeout(next.timer);
      next.start();
    }
  }

  /**
   * Takes `lane`'s next waiting task out of the queue and runs it alongside a running task of
   * the lane, on `host`, when that task accepts it (`join` given to `run`), the lane is not
   * limited to one task at a time (heavy tasks) and no other lane waits for a place it may
   * take: joining fills what the lane already holds, and never makes another caller wait
   * longer. False otherwise.
   */
  joinNext(lane: string, host: Host): boolean {
    const tasks = this.#lanes.get(lane);
    const next = tasks?.[0];
    if (!next?.join || this.#limitOf(lane) < this.options.perLane) return false;
    for (const other of this.#lanes.keys()) {
      // Another caller waits for a place it may take: it goes first.
      if (other !== lane && (this.#runningPerLane.get(other) ?? 0) < this.#limitOf(other)) {
        return false;
      }
    }
    tasks!.shift();
    if (tasks!.length === 0) this.#lanes.delete(lane);
    this.#lastStart.set(lane, (this.#starts += 1));
    if (next.timer) clearTimeout(next.timer);
    next.join(host);
    return true;
  }

  /**
   * Counts a task of `lane` that ran `ms` towards the heavy-task rule (tasks started by the
   * queue are counted by it; a joined task is counted by whoever ran it).
   */
  noteDuration(lane: string, ms: number): void {
    const { heavyTaskMs, heavyWindowMs = 10_000 } = this.options;
    if (heavyTaskMs === undefined) return;
    const now = performance.now();
    const recent = this.#recent.get(lane) ?? { long: [], at: now };
    recent.long.push(ms >= heavyTaskMs);
    if (recent.long.length > 3) recent.long.shift();
    recent.at = now;
    this.#recent.set(lane, recent);
    if (recent.long.filter(Boolean).length >= 2) this.#heavyUntil.set(lane, now + heavyWindowMs);
    // Forget lanes whose window has passed, now and then rather than on every task.
    if (this.#heavyUntil.size > 1000) {
      for (const [other, until] of this.#heavyUntil) {
        if (until <= now) this.#heavyUntil.delete(other);
      }
    }
    if (this.#recent.size > 1000) {
      for (const [other, { at }] of this.#recent) {
        if (at + heavyWindowMs <= now) this.#recent.delete(other);
      }
    }
  }

  /** Tasks `lane` may run at once now. */
  #limitOf(lane: string): number {
    const until = this.#heavyUntil.get(lane);
    if (until === undefined) return this.options.perLane;
    if (until > performance.now()) return 1;
    this.#heavyUntil.delete(lane);
    return this.options.perLane;
  }

  /** The waiting lane served least recently that may start another task. */
  #nextLane(): string | undefined {
    let best: string | undefined;
    let bestStart = Infinity;
    for (const lane of this.#lanes.keys()) {
      if ((this.#runningPerLane.get(lane) ?? 0) >= this.#limitOf(lane)) continue;
      const lastStart = this.#lastStart.get(lane) ?? 0;
      if (lastStart < bestStart) {
        best = lane;
        bestStart = lastStart;
      }
    }
    return best;
  }
}

/** Resolves once `result` and every promise in `held` (which may grow meanwhile) have settled. */
async function settled(result: Promise<unknown>, held: Promise<unknown>[]): Promise<void> {
  await result.catch(() => undefined);
  while (held.length > 0) await held.shift()!.catch(() => undefined);
}
