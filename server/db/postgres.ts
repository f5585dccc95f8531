import pg from 'pg';
import type { TimedRole } from '../config.ts';
import type { BatchOptions, Database, Queryable, QueryResult, Row, Statement } from './database.ts';
import { DatabaseUnavailableError, TEXT_KEPT_TYPES, settleBatch } from './database.ts';
import { FairQueue, QueueTimeoutError } from './fair-queue.ts';
import { currentRequestScope } from './request-scope.ts';

const textOids = new Set<number>(Object.values(TEXT_KEPT_TYPES));
const typeParsers = {
  getTypeParser(oid: number, format?: string) {
    if (textOids.has(oid)) return (value: string) => value;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

function wrap(client: pg.PoolClient | pg.Pool): Queryable {
  return {
    async query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await client.query({
        text: sql,
        values: params as unknown[],
        types: typeParsers,
      });
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

/** Connections in the pool when `poolSize` is not given. */
export const DEFAULT_POOL_SIZE = 10;

/** Connections one caller may hold at once: a fifth of the pool (two of ten). */
export function connectionsPerCaller(poolSize = DEFAULT_POOL_SIZE): number {
  return Math.max(1, Math.floor(poolSize / 5));
}

export interface PostgresOptions {
  /**
   * How long one request's statements may run, per role (Postgres' `statement_timeout`, set
   * for each transaction as PostgREST applies a role's settings). Without it nothing is bounded.
   */
  timeoutsMs?: Record<TimedRole, number>;
  /** Connections in the pool (default 10). */
  poolSize?: number;
}

/**
 * Connects to a PostgreSQL server (≥ 15) through a small pool. Requests take turns for the
 * connections (fair-queue.ts), and one caller holds at most a fifth of them (two of ten), so a caller
 * sending many slow requests cannot take the whole pool.
 */
export async function openPostgres(
  connectionString: string,
  options: PostgresOptions = {},
): Promise<Database> {
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  const timeouts = options.timeoutsMs;
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    // Queries are written without waiting for the previous answer (each keeps its own Sync), so
    // a request's transaction is one round trip (`batch`); awaited one by one they behave as before.
    pipeline: true,
    // Statements outside a request's transaction (the server's own bookkeeping) are bounded by
    // the service role's limit.
    ...(timeouts ? { options: `-c statement_timeout=${timeouts.service_role}` } : {}),
  });
  // An idle connection that the server ends (a restart, a failover, an administrator) is
  // reported here; without a listener node-postgres throws it and the whole process stops.
  // The pool drops that connection and opens a new one on the next query.
  pool.on('error', (error) => {
    console.error(
      `database: an idle connection was closed (${error.message}); it will be replaced`,
    );
  });
  // Fail at start-up, not on the first request, when the server cannot be reached.
  const probe = await pool.connect();
  probe.release();

  const queue = new FairQueue({
    concurrency: poolSize,
    perLane: connectionsPerCaller(poolSize),
    // A caller whose requests each keep a database core busy for a tenth of a second gets one
    // connection at a time: two at once took both cores of a small server, and every other
    // organisation's reads waited for CPU (bench/isolation.bench.ts).
    heavyTaskMs: 100,
  });
  /** Runs `fn` in the caller's turn, with the caller's time limit (0: none). */
  async function inTurn<T>(fn: (timeoutMs: number) => Promise<T>): Promise<T> {
    const scope = currentRequestScope();
    const timeoutMs = scope && timeouts ? timeouts[scope.role] : 0;
    try {
      return await queue.run(scope?.lane ?? 'server', () => fn(timeoutMs), timeoutMs || Infinity);
    } catch (error) {
      if (error instanceof QueueTimeoutError) throw new DatabaseUnavailableError();
      throw error;
    }
  }

  /** Opens the caller's transaction, its time limit set locally (the number is ours). */
  const beginSql = (timeoutMs: number) =>
    `begin; set local statement_timeout = ${Math.round(timeoutMs)}`;

  async function transaction<T>(timeoutMs: number, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query(beginSql(timeoutMs));
      const result = await fn(wrap(client));
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * The REST fast path in one round trip: BEGIN with the time limit, the statements and (for a
   * read) COMMIT are written at once on the pipelined connection, each with its own Sync, and
   * the answers read as they come. A failed statement aborts the transaction, so the ones after
   * it fail without running; the first error is the one reported. A writing batch keeps its
   * transaction open for `finish` and ends it in a second round trip, as PGlite does.
   */
  async function batch<T>(
    timeoutMs: number,
    statements: Statement[],
    finish: (rows: Row[]) => T,
    options: BatchOptions,
  ): Promise<T> {
    const client = await pool.connect();
    try {
      // The whole pipeline leaves in one write (node-postgres writes each query as it is sent).
      const socket = client.connection.stream;
      let sent: Promise<pg.QueryResult>[];
      socket.cork();
      try {
        sent = [
          client.query(beginSql(timeoutMs)),
          ...statements.map((statement) =>
            client.query({
              text: statement.sql,
              values: statement.params as unknown[],
              types: typeParsers,
            }),
          ),
          ...(options.readOnly ? [client.query('commit')] : []),
        ];
      } finally {
        socket.uncork();
      }
      const answers = await Promise.allSettled(sent);
      const failed = answers.find((answer) => answer.status === 'rejected');
      if (failed) {
        // A read's pipelined COMMIT has ended the aborted transaction already (as a rollback).
        if (!options.readOnly) await client.query('rollback').catch(() => undefined);
        throw failed.reason;
      }
      // After BEGIN's answer, one per statement.
      const rowsOf = options.rowsOf ?? statements.length - 1;
      const answer = answers[1 + rowsOf] as PromiseFulfilledResult<pg.QueryResult>;
      const rows = answer.value.rows as Row[];
      return await settleBatch(rows, finish, options, async (commit) => {
        await client.query(commit ? 'commit' : 'rollback');
      });
    } finally {
      client.release();
    }
  }

  const direct = wrap(pool);
  return {
    kind: 'postgres',
    query: (sql, params) => inTurn(() => direct.query(sql, params)),
    exec: (sql) => inTurn(() => direct.exec(sql)),
    transaction: (fn) => inTurn((timeoutMs) => transaction(timeoutMs, fn)),
    runBatch: (statements, finish, options) =>
      inTurn((timeoutMs) => batch(timeoutMs, statements, finish, options)),
    close: () => pool.end(),
  };
}
