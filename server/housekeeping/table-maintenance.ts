import type { JobKind } from '../jobs/job-runner.ts';
import type { Schedule } from '../jobs/scheduler.ts';
import { everyMinutes } from '../jobs/scheduler.ts';

/** The job kind that vacuums and analyzes the embedded database's tables that need it. */
export const TABLE_MAINTENANCE_KIND = 'database.maintain-tables';

/**
 * PGlite runs no autovacuum: without this, nothing would ever gather the planner's statistics
 * of a library that grew from empty (its plans would stay those of default estimates) or
 * reclaim the space of updated and deleted rows. Every ten minutes one job (its dedupe key
 * keeps a second from being added while the first waits) does what autovacuum would have.
 * PostgreSQL has its own autovacuum, so the schedule is registered on PGlite only.
 */
export const tableMaintenanceSchedule: Schedule = {
  next: everyMinutes(10),
  async run(tx, now) {
    await tx.query(`select private.enqueue_job($1, '{}'::jsonb, null, $1, $2::timestamptz, 3)`, [
      TABLE_MAINTENANCE_KIND,
      now.toISOString(),
    ]);
  },
};

/**
 * The tables past autovacuum's default thresholds (PostgreSQL's documentation, "The Autovacuum
 * Daemon"): vacuum when dead rows pass 50 + 20 % of the table, or rows inserted since the last
 * vacuum pass 1000 + 20 %; analyze when rows changed since the last analyze pass 50 + 10 %.
 * Largest need first.
 */
const TABLES_DUE = `
  select format('%I.%I', s.schemaname, s.relname) as name,
         s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
           or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0) as vacuum
    from pg_stat_user_tables s
    join pg_class c on c.oid = s.relid
   where s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
      or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)
      or s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
   order by s.n_dead_tup + s.n_mod_since_analyze desc`;

/**
 * Vacuums (with analyze) or analyzes each table that needs it, one statement per table, so
 * that requests take their turns in between. The statistics of this session are flushed first:
 * PGlite writes them out only now and then.
 */
export function tableMaintenanceJob(): JobKind {
  return {
    async handle(_job, { db, signal }) {
      await db.query('select pg_stat_force_next_flush()');
      // A cheap statement after the flush request, so that the counts below include it.
      await db.query('select 1');
      const { rows } = await db.query<{ name: string; vacuum: boolean }>(TABLES_DUE);
      for (const { name, vacuum } of rows) {
        if (signal.aborted) return;
        await db.exec(vacuum ? `vacuum (analyze) ${name}` : `analyze ${name}`);
      }
    },
  };
}
