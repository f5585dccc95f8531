import type { Database, Queryable } from '../db/database.ts';

/** A claimed job, as its handler sees it. */
export interface Job {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  organizationId: string | null;
  /** This attempt's number, from 1. */
  attempt: number;
  maxAttempts: number;
}

interface JobRow {
  id: string | number;
  kind: string;
  payload: Record<string, unknown>;
  organization_id: string | null;
  attempts: number;
  max_attempts: number;
}

// The lane of a job: its organisation, or the installation's own work.
const LANE = `coalesce(j.organization_id::text, 'installation')`;

/**
 * Claims the next due job for its kind's `leaseSeconds`: from the lane (organisation) served least
 * recently, then the oldest. `skip locked` lets several runners (server processes) claim at
 * once without waiting for each other or taking the same job.
 */
const CLAIM_SQL = `
  with next as (
    select j.id, ${LANE} as lane
    from private.jobs j
    left join private.job_turns t on t.lane = ${LANE}
    where j.finished_at is null and j.failed_at is null and j.run_after <= $1
      and (j.locked_until is null or j.locked_until < $1)
      and j.kind = any($4::text[])
    order by t.last_turn nulls first, j.run_after, j.id
    limit 1
    for update of j skip locked
  ), turn as (
    insert into private.job_turns (lane, last_turn)
    select lane, nextval('private.job_turn_seq') from next
    on conflict (lane) do update set last_turn = excluded.last_turn
  )
  update private.jobs j
  set attempts = j.attempts + 1,
      locked_until = $1::timestamptz + make_interval(secs => ($2::jsonb ->> j.kind)::double precision),
      locked_by = $3
  from next
  where j.id = next.id
  returning j.id, j.kind, j.payload, j.organization_id, j.attempts, j.max_attempts`;

export async function claimJob(
  db: Queryable,
  options: { now: Date; leaseSeconds: Record<string, number>; runner: string; kinds: string[] },
): Promise<Job | null> {
  const { rows } = await db.query<JobRow>(CLAIM_SQL, [
    options.now.toISOString(),
    JSON.stringify(options.leaseSeconds),
    options.runner,
    options.kinds,
  ]);
  const row = rows[0];
  if (!row) return null;
  return {
    id: Number(row.id),
    kind: row.kind,
    payload: row.payload,
    organizationId: row.organization_id,
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
  };
}

/** Marks a job done; only the runner holding it may. */
export async function finishJob(db: Queryable, job: Job, runner: string, now: Date) {
  await db.query(
    `update private.jobs set finished_at = $3, locked_until = null, last_error = null
     where id = $1 and locked_by = $2`,
    [job.id, runner, now.toISOString()],
  );
}

/**
 * Records a failed attempt: the job runs again after `retryInSeconds`, or is given up when it
 * has had all its attempts (it stays, with its error, for whoever looks at it).
 */
export async function failJob(
  db: Queryable,
  job: Job,
  options: { runner: string; now: Date; error: string; retryInSeconds: number },
) {
  await db.query(
    `update private.jobs
     set last_error = $3, locked_until = null,
         run_after = $4::timestamptz + make_interval(secs => $5),
         failed_at = case when attempts >= max_attempts then $4::timestamptz end
     where id = $1 and locked_by = $2`,
    [
      job.id,
      options.runner,
      options.error.slice(0, 2000),
      options.now.toISOString(),
      options.retryInSeconds,
    ],
  );
}

/** Whether any job of `kinds` is due at `now` (claimed or not). */
/**
 * Whether a job of `kinds` is due. A read, and marked as one: on PGlite a statement that may
 * write empties the REST read cache, and the runner asks this every poll.
 */
export async function hasDueJobs(db: Database, now: Date, kinds: string[]): Promise<boolean> {
  return db.runBatch(
    [
      {
        sql: `select exists (
                select 1 from private.jobs
                where finished_at is null and failed_at is null and run_after <= $1
                  and (locked_until is null or locked_until < $1)
                  and kind in (select jsonb_array_elements_text($2::jsonb))
              ) as due`,
        // As JSON: a batch's parameters are text, as the REST API binds them.
        params: [now.toISOString(), JSON.stringify(kinds)],
      },
    ],
    (rows) => rows[0]?.due === true,
    { readOnly: true },
  );
}

/** Adds a job (nothing when a pending job has the same dedupe key); its id, or null. */
export async function enqueueJob(
  db: Queryable,
  job: {
    kind: string;
    payload?: Record<string, unknown>;
    organizationId?: string | null;
    dedupeKey?: string | null;
    runAfter?: Date;
    maxAttempts?: number;
  },
): Promise<number | null> {
  const { rows } = await db.query<{ id: string | null }>(
    `select private.enqueue_job($1, $2::jsonb, $3::uuid, $4, coalesce($5::timestamptz, now()), $6) as id`,
    [
      job.kind,
      JSON.stringify(job.payload ?? {}),
      job.organizationId ?? null,
      job.dedupeKey ?? null,
      job.runAfter?.toISOString() ?? null,
      job.maxAttempts ?? 5,
    ],
  );
  return rows[0]?.id == null ? null : Number(rows[0].id);
}
