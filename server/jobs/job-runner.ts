import { randomUUID } from 'node:crypto';
import type { Database, Row, ScopedDatabase, Statement } from '../db/database.ts';
import type { Clock } from './clock.ts';
import type { Job } from './job-queries.ts';
import type { DueGroups } from './job-queries.ts';
import { claimJob, dueGroups, failJob, finishJob, finishJobStatement } from './job-queries.ts';

/** What a job's handler gets besides the job. */
export interface JobContext {
  /** The database, its work in the job's lane (`job:<organisation>`) with the service role's deadline. */
  db: ScopedDatabase;
  clock: Clock;
  /** Aborted when the job's time is up or the server stops: stop, the job runs again later. */
  signal: AbortSignal;
  /**
   * Runs the handler's last statement (a write) and marks the job done in the same transaction:
   * one round trip to the database instead of two, and the job is done exactly when its work
   * is recorded. Answers the statement's rows. Not after the signal has been aborted (throws its
   * reason, and the job runs again later); a handler that calls it must not fail afterwards.
   */
  finishWith(statement: Statement): Promise<Row[]>;
}

export interface JobKind {
  handle(job: Job, context: JobContext): Promise<void>;
  /** Longest one attempt may take (default 5 minutes); its lease lasts a minute longer. */
  timeoutMs?: number;
  /** Wait before attempt n + 1 (default: 30 s doubling per attempt, at most 6 hours). */
  retryDelaySeconds?(attempt: number): number;
  /**
   * Work that may pile up by the thousand (reading a whole library's text): claimed only when
   * no other kind is due, so that reminders and e-mail never wait behind it.
   */
  bulk?: boolean;
}

export interface JobRunnerOptions {
  db: Database;
  clock: Clock;
  kinds: Record<string, JobKind>;
  /** Jobs run at once by this process. */
  concurrency: number;
  /** How often to look for due jobs when nothing woke the runner. */
  pollIntervalMs: number;
  /** Runs every poll before jobs are claimed (the scheduler adds due work here). */
  beforeClaim?: () => Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const defaultRetryDelay = (attempt: number) => Math.min(30 * 2 ** (attempt - 1), 6 * 3600);

/**
 * Runs the jobs of `private.jobs` (see supabase/schemas/02_jobs.sql): claims due ones with a
 * lease, at most `concurrency` at a time, each in its organisation's lane of the database's
 * turn-taking, and records success, or failure with a retry after a growing delay. A job whose
 * lease passes (a crash, a stuck handler) is claimed again, so handlers must be safe to run
 * again: they check what is done before doing it.
 */
export class JobRunner {
  readonly #id = `runner-${randomUUID()}`;
  readonly #running = new Set<Promise<void>>();
  readonly #controllers = new Set<AbortController>();
  #timer: NodeJS.Timeout | undefined;
  #pumping: Promise<void> | null = null;
  #again = false;
  /** A timed poll asked for a pump while one ran: the repeat checks the schedules too. */
  #schedulesAgain = false;
  /** A job finished while a pump ran: the repeat claims without asking what is due first. */
  #afterJobAgain = false;
  #stopped = true;
  #noQueueHere = false;

  /**
   * A claim lasts as long as its kind may run, and a minute more: a job of a dead runner is
   * taken again soon after its own time limit, not after the slowest kind's (an export's).
   */
  readonly #leaseSeconds: Record<string, number>;

  constructor(private readonly options: JobRunnerOptions) {
    this.#leaseSeconds = Object.fromEntries(
      Object.entries(options.kinds).map(([name, kind]) => [
        name,
        Math.ceil(this.#timeoutOf(kind) / 1000) + 60,
      ]),
    );
  }

  /** Starts looking for due jobs (and schedules) every poll interval. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule();
  }

  /** Stops claiming; running jobs are told to stop and awaited (their leases then pass). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    for (const controller of this.#controllers) controller.abort(new Error('the server stops'));
    await this.#pumping;
    await Promise.allSettled([...this.#running]);
  }

  /** Looks for due jobs now (something was just added). */
  wake(): void {
    if (this.#stopped) return;
    void this.#pump();
  }

  /**
   * Runs due jobs until none is due at the clock's time and none is running: for tests, which
   * move the clock themselves, and for callers that need the work done before they answer.
   */
  async runDue(): Promise<void> {
    for (;;) {
      await this.#pump({ schedules: true });
      await Promise.allSettled([...this.#running]);
      if (this.#noQueueHere || this.#kinds().length === 0) return;
      const due = await this.#dueGroups();
      if (!due.regular && !due.bulk && this.#running.size === 0) return;
    }
  }

  /** A database without the app's migrations (the services' own tests) has no queue. */
  #noQueue(): void {
    if (this.#noQueueHere) return;
    console.warn('jobs: this database has no job queue (private.jobs); background work is off');
    this.#noQueueHere = true;
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  /** Every kind the runner handles; or only the bulk ones, or only the others. */
  #kinds(bulk?: boolean): string[] {
    return Object.entries(this.options.kinds)
      .filter(([, kind]) => bulk === undefined || (kind.bulk ?? false) === bulk)
      .map(([name]) => name);
  }

  #dueGroups(): Promise<DueGroups> {
    return dueGroups(this.#installation, this.options.clock.now(), {
      regular: this.#kinds(false),
      bulk: this.#kinds(true),
    });
  }

  /** The database in the lane of the jobs of `organizationId` (null: the installation's). */
  #dbFor(organizationId: string | null): ScopedDatabase {
    return this.options.db.scoped({
      lane: `job:${organizationId ?? 'installation'}`,
      role: 'service_role',
    });
  }

  /** The runner's own bookkeeping (what is due, claims), in the installation's job lane. */
  get #installation(): ScopedDatabase {
    return this.#dbFor(null);
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      void this.#pump({ schedules: true }).finally(() => this.#schedule());
    }, this.options.pollIntervalMs);
    this.#timer.unref();
  }

  /**
   * Claims and starts jobs while there is room; one pump at a time, repeated when asked
   * meanwhile. Schedules (`beforeClaim`) become due as time passes, so only the timed polls
   * and `runDue` check them; a pump because a job was added or finished does not.
   */
  #pump(options: { schedules?: boolean; afterJob?: boolean } = {}): Promise<void> {
    if (this.#pumping) {
      this.#again = true;
      this.#schedulesAgain ||= options.schedules === true;
      this.#afterJobAgain ||= options.afterJob === true;
      return this.#pumping;
    }
    this.#pumping = (async () => {
      let schedules = options.schedules === true;
      let afterJob = options.afterJob === true;
      do {
        this.#again = false;
        afterJob ||= this.#afterJobAgain;
        this.#afterJobAgain = false;
        // Asked for by this pump's caller, or by a timed poll or `runDue` while it ran.
        schedules ||= this.#schedulesAgain;
        this.#schedulesAgain = false;
        if (schedules) {
          await this.options.beforeClaim?.().catch((error: unknown) => {
            if ((error as { code?: unknown }).code === '42P01') this.#noQueue();
            else console.error('jobs: the scheduler failed:', error);
          });
        }
        schedules = false;
        // Claiming writes; most polls find nothing, so they only read first whether a job is
        // due. A job just finished says that more may be due (a backlog, as after a batch of
        // uploads): then the claim is sent at once, and finds nothing at worst.
        const due: DueGroups = { regular: afterJob, bulk: afterJob };
        afterJob = false;
        if (
          !due.regular &&
          !this.#noQueueHere &&
          this.#kinds().length > 0 &&
          this.#running.size < this.options.concurrency
        ) {
          Object.assign(
            due,
            await this.#dueGroups().catch((error: unknown) => {
              if ((error as { code?: unknown }).code === '42P01') this.#noQueue();
              else console.error('jobs: could not look for due jobs:', error);
              return due;
            }),
          );
        }
        while (
          (due.regular || due.bulk) &&
          !this.#noQueueHere &&
          this.#running.size < this.options.concurrency
        ) {
          const job = await (async () => {
            // Bulk work only when no other kind is due: the claim decides, in one statement.
            const claimed = await claimJob(this.#installation, {
              now: this.options.clock.now(),
              leaseSeconds: this.#leaseSeconds,
              runner: this.#id,
              regular: due.regular ? this.#kinds(false) : [],
              bulk: due.bulk ? this.#kinds(true) : [],
            });
            // Nothing left to claim (taken meanwhile): not again in this round.
            if (!claimed) Object.assign(due, { regular: false, bulk: false });
            return claimed;
          })().catch((error: unknown) => {
            if ((error as { code?: unknown }).code === '42P01') {
              // A database without the app's migrations (the services' own tests): no queue.
              this.#noQueue();
            } else {
              console.error('jobs: could not claim a job:', error);
            }
            return null;
          });
          if (!job) break;
          const run = this.#run(job).finally(() => {
            this.#running.delete(run);
            // A slot is free: more may be due.
            if (!this.#stopped) void this.#pump({ afterJob: true });
          });
          this.#running.add(run);
        }
      } while (this.#again);
    })().finally(() => {
      this.#pumping = null;
    });
    return this.#pumping;
  }

  #timeoutOf(kind: JobKind | undefined): number {
    return kind?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async #run(job: Job): Promise<void> {
    const kind = this.options.kinds[job.kind]!;
    const controller = new AbortController();
    this.#controllers.add(controller);
    const timeout = setTimeout(
      () => controller.abort(new Error(`the job took longer than ${this.#timeoutOf(kind)} ms`)),
      this.#timeoutOf(kind),
    );
    const { clock } = this.options;
    const db = this.#dbFor(job.organizationId);
    let finished = false;
    const finishWith = async (statement: Statement): Promise<Row[]> => {
      controller.signal.throwIfAborted();
      const rows = await db.runBatch(
        [statement, finishJobStatement(job, this.#id, clock.now())],
        (answer) => answer,
        // Nothing in the answer can refuse it: the worker commits in the batch's own message.
        { readOnly: false, ends: 'commit', rowsOf: 0 },
      );
      finished = true;
      return rows;
    };
    try {
      await kind.handle(job, { db, clock, signal: controller.signal, finishWith });
      if (!finished) {
        controller.signal.throwIfAborted();
        await finishJob(db, job, this.#id, clock.now());
      }
    } catch (error) {
      if (finished) {
        // Done and recorded: a failure after that must not mark it failed as well.
        console.error(`jobs: ${job.kind} #${job.id} failed after it was done:`, error);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const retryInSeconds = (kind.retryDelaySeconds ?? defaultRetryDelay)(job.attempt);
      if (job.attempt >= job.maxAttempts) {
        console.error(`jobs: ${job.kind} #${job.id} failed for good: ${message}`);
      }
      await failJob(db, job, {
        runner: this.#id,
        now: clock.now(),
        error: message,
        retryInSeconds,
      }).catch((failure: unknown) => console.error('jobs: could not record a failure:', failure));
    } finally {
      clearTimeout(timeout);
      this.#controllers.delete(controller);
    }
  }
}
