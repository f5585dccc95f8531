import type { Database, Queryable, ScopedDatabase } from '../db/database.ts';
import type { Clock } from './clock.ts';

/** Recurring work: when it is next due, and what to do then (usually: add jobs). */
export interface Schedule {
  /** When it runs next, after a run that started at `now`. */
  next(now: Date): Date;
  /**
   * The work of one run, inside the transaction that moved the schedule on: what it adds
   * (jobs, with dedupe keys) is committed together with the move, so a run is never lost nor
   * done twice, even with two server processes.
   */
  run(tx: Queryable, now: Date): Promise<void>;
}

/** Every `minutes` minutes, on the minute grid (e.g. 15: at :00, :15, :30, :45 UTC). */
export function everyMinutes(minutes: number): (now: Date) => Date {
  return every(minutes * 60_000);
}

/** Every `milliseconds`, on their grid since the epoch. */
export function every(milliseconds: number): (now: Date) => Date {
  return (now) => new Date(Math.floor(now.getTime() / milliseconds) * milliseconds + milliseconds);
}

/**
 * Runs the schedules of `private.schedules` that are due at the clock's time. Each due
 * schedule is locked (`for update skip locked`: another process running the same check skips
 * it), run, and moved to its next time in one transaction. After downtime a schedule runs once
 * and is moved past now: its own work decides what the missed time means (reminders look at
 * what is due today, not at what was due each missed day).
 */
export class Scheduler {
  #registered: Promise<void> | null = null;
  /** The scheduler's work, schedules' own included: its own lane, the service role's deadline. */
  private readonly db: ScopedDatabase;

  constructor(
    db: Database,
    private readonly clock: Clock,
    private readonly schedules: Record<string, Schedule>,
  ) {
    this.db = db.scoped({ lane: 'scheduler', role: 'service_role' });
  }

  /** Checks every schedule once; called by the job runner before it claims jobs. */
  async runDue(): Promise<void> {
    if (Object.keys(this.schedules).length === 0) return;
    this.#registered ??= this.#register();
    await this.#registered;
    // One small read on most checks, marked as one (on PGlite a possible write would empty
    // the REST read cache every second); a transaction only for what is due.
    const due = await this.db.runBatch(
      [
        {
          sql: `select name from private.schedules where next_run_at <= $1`,
          params: [this.clock.now().toISOString()],
        },
      ],
      (rows) => rows.map((row) => String(row.name)),
      { readOnly: true },
    );
    for (const name of due) {
      const schedule = this.schedules[name];
      if (schedule) await this.#runIfDue(name, schedule);
    }
  }

  /** Adds schedules that are not in the table yet, due at their first time from now. */
  async #register(): Promise<void> {
    const now = this.clock.now();
    for (const [name, schedule] of Object.entries(this.schedules)) {
      await this.db.query(
        `insert into private.schedules (name, next_run_at) values ($1, $2) on conflict (name) do nothing`,
        [name, schedule.next(now).toISOString()],
      );
    }
  }

  async #runIfDue(name: string, schedule: Schedule): Promise<void> {
    const now = this.clock.now();
    try {
      await this.db.transaction(async (tx) => {
        const { rows } = await tx.query(
          `select name from private.schedules where name = $1 and next_run_at <= $2
           for update skip locked`,
          [name, now.toISOString()],
        );
        if (rows.length === 0) return;
        await schedule.run(tx, now);
        await tx.query(
          `update private.schedules
           set next_run_at = $2, last_started_at = $3, last_finished_at = $3, last_error = null
           where name = $1`,
          [name, schedule.next(now).toISOString(), now.toISOString()],
        );
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`scheduler: ${name} failed: ${message}`);
      // Tried again at the next check; the error stays visible meanwhile.
      await this.db
        .query(`update private.schedules set last_error = $2 where name = $1`, [name, message])
        .catch(() => undefined);
    }
  }
}
