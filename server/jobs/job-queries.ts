import type { Queryable, ScopedDatabase, Statement } from '../db/database.ts';

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

/**
 * Whether a job of the kinds in the JSON array `kinds` (a parameter) is due at `now` (claimed or
 * not): the one test of "due" for the claim and for `dueGroups`.
 */
const dueSql = (now: string, kinds: string) => `exists (
      select 1 from private.jobs
      where finished_at is null and failed_at is null and run_after <= ${now}
        and (locked_until is null or locked_until < ${now})
        and kind in (select jsonb_array_elements_text(${kinds}::jsonb))
    )`;

/**
 * Claims the next due job, leased for its kind's `leaseSeconds` (`private.claim_job`, migrations
 * 20261127001100 and …001101; the `mail-worker` edge function uses it too): from the lane
 * (organisation) served least recently, then the oldest. `skip locked` lets several runners
 * (server processes, function calls) claim at once without waiting for each other or taking the
 * same job. Of `regular` kinds when one of them is due, else of the `bulk` kinds (work that may
 * pile up by the thousand waits behind e-mail and reminders), decided in the same statement: one
 * round trip per claim. The kinds are sent as JSON text, so that on PGlite the worker runs the
 * claim as a prepared statement (`isTextValue`, pglite-batch.ts) rather than parsing it anew.
 */
const CLAIM_SQL = `
  select id, kind, payload, organization_id, attempts, max_attempts
  from private.claim_job($1::timestamptz, $2::jsonb, $3,
    case when ${dueSql('$1::timestamptz', '$4')}
    then array(select jsonb_array_elements_text($4::jsonb))
    else array(select jsonb_array_elements_text($5::jsonb)) end)`;

export async function claimJob(
  db: Queryable,
  options: {
    now: Date;
    leaseSeconds: Record<string, number>;
    runner: string;
    /** Kinds claimed first; `bulk` only when none of these is due. */
    regular: string[];
    bulk: string[];
  },
): Promise<Job | null> {
  const { rows } = await db.query<JobRow>(CLAIM_SQL, [
    options.now.toISOString(),
    JSON.stringify(options.leaseSeconds),
    options.runner,
    JSON.stringify(options.regular),
    JSON.stringify(options.bulk),
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

/**
 * The statement that marks a job done (only the runner holding it may), to run in one batch with
 * the handler's last statement (`JobContext.finishWith`).
 */
export function finishJobStatement(job: Job, runner: string, now: Date): Statement {
  return {
    sql: `select private.finish_job($1, $2, $3::timestamptz)`,
    params: [job.id, runner, now.toISOString()],
  };
}

/** Marks a job done; only the runner holding it may. */
export async function finishJob(db: Queryable, job: Job, runner: string, now: Date) {
  await db.query(`select private.finish_job($1, $2, $3::timestamptz)`, [
    job.id,
    runner,
    now.toISOString(),
  ]);
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
  await db.query(`select private.fail_job($1, $2, $3::timestamptz, $4, $5::float8)`, [
    job.id,
    options.runner,
    options.now.toISOString(),
    options.error.slice(0, 2000),
    options.retryInSeconds,
  ]);
}

/** Which of two groups of kinds have a job due: the runner claims from a group only then. */
export interface DueGroups {
  regular: boolean;
  bulk: boolean;
}

/**
 * Which groups of kinds have a job due at `now` (claimed or not), in one statement. A read,
 * and marked as one: on PGlite a statement that may write empties the REST read cache, and the
 * runner asks this every poll.
 */
export async function dueGroups(
  db: ScopedDatabase,
  now: Date,
  kinds: { regular: string[]; bulk: string[] },
): Promise<DueGroups> {
  return db.runBatch(
    [
      {
        sql: `select ${dueSql('$1', '$2')} as regular, ${dueSql('$1', '$3')} as bulk`,
        // As JSON: a batch's parameters are text, as the REST API binds them.
        params: [now.toISOString(), JSON.stringify(kinds.regular), JSON.stringify(kinds.bulk)],
      },
    ],
    (rows) => ({ regular: rows[0]?.regular === true, bulk: rows[0]?.bulk === true }),
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
