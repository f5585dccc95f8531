/**
 * One small interface over PGlite and PostgreSQL, so the rest of the server never knows which
 * one it runs on. Values come back as Postgres prints them (text), except booleans, small
 * integers and JSON, which both drivers are told to parse the same way.
 */
import type { RequestScope } from './request-scope.ts';
import type { WriteClock } from './write-clock.ts';

export type Row = Record<string, unknown>;

export interface QueryResult<T = Row> {
  rows: T[];
  /** Rows affected by an insert, update or delete; rows returned by a select. */
  rowCount: number;
}

export interface Queryable {
  /** One statement with bound parameters ($1, $2, …). */
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Several statements without parameters (migrations, platform SQL). */
  exec(sql: string): Promise<void>;
}

/** One statement with its bound parameters. */
export interface Statement {
  sql: string;
  params: readonly unknown[];
}

export interface BatchOptions {
  /**
   * The statements only read: they may run without an explicit transaction, and a failure of
   * `finish` has nothing to roll back.
   */
  readOnly: boolean;
  /**
   * A text column of the rows `finish` gets that it only sends on as UTF-8 (a REST
   * answer's body): it comes as bytes (Uint8Array), null stays null. PGlite's worker encodes it
   * once and hands the bytes over to this thread, rather than copying a string between threads
   * that is then encoded again for the socket; on PostgreSQL `settleBatch` encodes it.
   */
  bytesColumn?: string;
  /**
   * How a writing batch ends, when that is known before `finish` runs (see `BatchEnd`): a driver
   * may then end the transaction with the batch itself instead of waiting for `finish` (on
   * PGlite one message to its worker instead of two). Without it `finish` decides.
   */
  ends?: BatchEnd;
  /** Which statement's rows `finish` gets (its index in `statements`; default the last). */
  rowsOf?: number;
}

/**
 * How a writing batch ends, decided by its rows alone: `commit` (its `finish` cannot refuse),
 * `rollback` (a trial, or a request that asked for its work to be undone: `finish` gives the
 * answer, which a commit would not change), or `commitIf` the first row of the rows `finish`
 * gets has `column` between `min` and `max` (REST's `.single()` and `max-affected` checks count
 * the rows of the answer). With `commitIf`, `finish` must refuse (throw) exactly outside those
 * bounds; `settleEndedBatch` holds it to that.
 */
export type BatchEnd =
  'commit' | 'rollback' | { commitIf: { column: string; min: number; max: number } };

/** Whether a batch that `ends` so commits with these rows (those `finish` gets). */
export function batchCommits(rows: Row[], ends: BatchEnd): boolean {
  if (ends === 'commit' || ends === 'rollback') return ends === 'commit';
  const { column, min, max } = ends.commitIf;
  const value = Number(rows[0]?.[column]);
  return value >= min && value <= max;
}

/**
 * `finish` of a batch that a driver has ended by `ends` already. A batch rolled back by
 * `commitIf` whose `finish` accepted the rows would tell the caller that undone work was done:
 * that breaks `commitIf`'s contract and is answered as an error.
 */
export function settleEndedBatch<T>(rows: Row[], finish: (rows: Row[]) => T, ends: BatchEnd): T {
  const value = finish(rows);
  if (ends !== 'rollback' && !batchCommits(rows, ends)) {
    throw new Error('the batch was rolled back, but its finish accepted it');
  }
  return value;
}

/**
 * A database handle that carries the scope of the work done through it: the lane whose turns it
 * takes (fair-queue.ts) and the role whose deadline applies, or `null` for the server's own work
 * (no deadline, the server's lane). Every query goes through one, so work cannot run without the
 * scope of the request or job it belongs to.
 */
export interface ScopedDatabase extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** The same as `Database.writeClock`. */
  readonly writeClock?: WriteClock;
  /** The scope of this handle's work; `null` for the server's own. */
  readonly scope: RequestScope | null;
  /**
   * The database this handle is on: the key of what is kept once per database (its schema
   * cache, its time zones), whichever request's handle fills it.
   */
  readonly database: Database;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `statements` in one transaction and hands the rows of the last one to `finish`; the
   * transaction commits when `finish` returns and rolls back when it or a statement throws. The
   * fast path of the REST API: a driver may send all statements in one round trip.
   */
  runBatch<T>(
    statements: Statement[],
    finish: (rows: Row[]) => T,
    options: BatchOptions,
  ): Promise<T>;
}

/**
 * The database of the server. It runs nothing by itself: work goes through a handle with its
 * scope (`scoped` for a request or a job, `serverWork` for the server's own), so that the
 * compiler lists any query that would run without one.
 */
export interface Database {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Present when this process is the database's only writer (PGlite): every call that may
   * write ticks it. PostgreSQL has none, since other clients may write to it.
   */
  readonly writeClock?: WriteClock;
  /** A handle whose work takes the turns of `scope.lane`, within `scope.role`'s deadline. */
  scoped(scope: RequestScope): ScopedDatabase;
  /**
   * The handle of the server's own work (migrations, start-up sweeps, schedules' bookkeeping, a
   * backup snapshot): the server's lane, no deadline.
   */
  serverWork(): ScopedDatabase;
  close(): Promise<void>;
}

/** The shape of an error raised by Postgres, as both drivers report it. */
export interface PostgresError extends Error {
  code: string;
  detail?: string;
  hint?: string;
}

export function isPostgresError(error: unknown): error is PostgresError {
  const code: unknown = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/**
 * The end of `runBatch` for a driver that ends the transaction after `finish`: `finish` turns
 * the rows into the answer, then `end` commits, or rolls back when `finish` threw or the
 * batch `ends` so. A read-only batch has nothing to end.
 */
export async function settleBatch<T>(
  rows: Row[],
  finish: (rows: Row[]) => T,
  options: BatchOptions,
  end: (commit: boolean) => Promise<void>,
): Promise<T> {
  if (options.bytesColumn !== undefined) encodeColumn(rows, options.bytesColumn);
  if (options.readOnly) return finish(rows);
  const { ends } = options;
  let value: T;
  try {
    value = ends ? settleEndedBatch(rows, finish, ends) : finish(rows);
  } catch (error) {
    await end(false);
    throw error;
  }
  await end(ends ? batchCommits(rows, ends) : true);
  return value;
}

const utf8 = new TextEncoder();

/**
 * Replaces the text of `column` in every row by its UTF-8 bytes (`BatchOptions.bytesColumn`),
 * each in an ArrayBuffer of its own (so that it can be transferred between threads), and
 * returns those buffers. Values that are bytes already, or null, are left as they are.
 */
export function encodeColumn(rows: Row[], column: string): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const row of rows) {
    const value = row[column];
    if (typeof value !== 'string') continue;
    const bytes = utf8.encode(value);
    row[column] = bytes;
    buffers.push(bytes.buffer);
  }
  return buffers;
}

/**
 * The database could not take the work in time: it is busy with other requests or being
 * restarted. Services answer 503 with `Retry-After` (Postgres' "cannot connect now" class).
 */
export class DatabaseUnavailableError extends Error implements PostgresError {
  readonly code = '57P03';
  readonly detail?: string;
  readonly hint?: string;
  constructor(
    message = 'the database is busy, please try again in a moment',
    readonly retryAfterSeconds = 1,
  ) {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}

/** What Postgres reports when a statement ran past `statement_timeout`. */
export function statementTimeoutError(): PostgresError {
  return Object.assign(new Error('canceling statement due to statement timeout'), {
    code: '57014',
  });
}

/** Type OIDs whose text form we keep as text in both drivers. */
export const TEXT_KEPT_TYPES = {
  int8: 20,
  numeric: 1700,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
} as const;
