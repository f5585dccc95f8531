import pg from 'pg';
import type { TimedRole } from '../config.ts';
import type { BatchOptions, Database, Queryable, QueryResult, Row, Statement } from './database.ts';
import { DatabaseUnavailableError, TEXT_KEPT_TYPES, settleBatch } from './database.ts';
import type { HoldPlace } from './fair-queue.ts';
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

/**
 * Writes BEGIN with the time limit, the statements and (for a read) COMMIT on the pipelined
 * connection in one socket write, each with its own Sync; returns their answers to come.
 */
function writeBatch(
  client: pg.PoolClient,
  timeoutMs: number,
  statements: Statement[],
  options: BatchOptions,
): Promise<pg.QueryResult>[] {
  // node-postgres writes each query as it is sent: corked, the pipeline leaves at once.
  const socket = client.connection.stream;
  socket.cork();
  try {
    return [
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
}

/** Opens the caller's transaction, its time limit set locally (the number is ours). */
const beginSql = (timeoutMs: number) =>
  `begin; set local statement_timeout = ${Math.round(timeoutMs)}`;

/**
 * The rows of a written batch's last statement (before its COMMIT). A failed statement aborts
 * the transaction, so the ones after it fail without running: the first error is reported.
 */
async function answerOf(sent: Promise<pg.QueryResult>[], statements: number): Promise<Row[]> {
  const answers = await Promise.allSettled(sent);
  const failed = answers.find((answer) => answer.status === 'rejected');
  if (failed) throw failed.reason;
  // After BEGIN, the last of the statements.
  const last = answers[statements] as PromiseFulfilledResult<pg.QueryResult>;
  return last.value.rows as Row[];
}

/** Read batches of one caller that may be on one connection at once (`SharedReads`). */
const READS_IN_FLIGHT = 2;

/**
 * One connection carrying a caller's read-only batches one after another, up to
 * READS_IN_FLIGHT written at once. Each batch is a whole transaction (BEGIN to COMMIT), so a
 * failed one ends before the next starts. `drained` resolves when none is left and no other
 * joined (`takeNext`, asked whenever there is room), so the connection can go back to the pool.
 */
class SharedReads {
  #inFlight = 0;
  /** When the database finished the previous batch (or the connection was taken). */
  #previousDone = performance.now();
  #drain!: () => void;
  readonly drained = new Promise<void>((resolve) => (this.#drain = resolve));

  constructor(
    private readonly client: pg.PoolClient,
    private readonly takeNext: () => boolean,
  ) {}

  /**
   * Sends one read and, while there is room, the next waiting; resolves with `finish`'s value
   * and the time the database spent on this batch (from when it could start it).
   */
  async send<T>(
    timeoutMs: number,
    statements: Statement[],
    finish: (rows: Row[]) => T,
  ): Promise<{ value: T; busyMs: number }> {
    const sentAt = performance.now();
    this.#inFlight += 1;
    const sent = writeBatch(this.client, timeoutMs, statements, { readOnly: true });
    const answer = answerOf(sent, statements.length);
    while (this.#inFlight < READS_IN_FLIGHT && this.takeNext());
    try {
      const rows = await answer;
      return {
        value: finish(rows),
        busyMs: performance.now() - Math.max(sentAt, this.#previousDone),
      };
    } finally {
      this.#previousDone = performance.now();
      this.#inFlight -= 1;
      while (this.#inFlight < READS_IN_FLIGHT && this.takeNext());
      if (this.#inFlight === 0) this.#drain();
    }
  }
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

  const queue = new FairQueue<SharedReads>({
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
   * A writing batch (the REST fast path): BEGIN with the time limit and the statements are
   * written at once on the pipelined connection (`writeBatch`), the answers read as they come;
   * the transaction stays open for `finish` and ends in a second round trip, as on PGlite.
   * Reads go through `readBatch`.
   */
  async function batch<T>(
    timeoutMs: number,
    statements: Statement[],
    finish: (rows: Row[]) => T,
    options: BatchOptions,
  ): Promise<T> {
    const client = await pool.connect();
    try {
      const sent = writeBatch(client, timeoutMs, statements, options);
      let rows: Row[];
      try {
        rows = await answerOf(sent, statements.length);
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      }
      return await settleBatch(rows, finish, options, async (commit) => {
        await client.query(commit ? 'commit' : 'rollback');
      });
    } finally {
      client.release();
    }
  }

  /**
   * A read-only batch in the caller's turn. Its connection stays the caller's while its answer
   * is on the way, and takes the caller's next reads waiting in the queue (`joinNext`, at most
   * READS_IN_FLIGHT at once), written before the previous answer is back: the database starts
   * each as soon as it has finished the one before, instead of idling while this process turns
   * an answer into a response and sends the next read. The caller still holds at most its
   * share of connections, and joining stops as soon as another caller waits for one.
   */
  function readBatch<T>(statements: Statement[], finish: (rows: Row[]) => T): Promise<T> {
    const scope = currentRequestScope();
    const lane = scope?.lane ?? 'server';
    const timeoutMs = scope && timeouts ? timeouts[scope.role] : 0;
    const send = (reads: SharedReads) => reads.send(timeoutMs, statements, finish);
    const joined = async (reads: SharedReads) => {
      const { value, busyMs } = await send(reads);
      queue.noteDuration(lane, busyMs);
      return value;
    };
    const first = async (hold: HoldPlace) => {
      const client = await pool.connect();
      const reads: SharedReads = new SharedReads(client, () => queue.joinNext(lane, reads));
      hold(reads.drained.finally(() => client.release()));
      return (await send(reads)).value;
    };
    return queue.run(lane, first, timeoutMs || Infinity, joined).catch((error: unknown) => {
      if (error instanceof QueueTimeoutError) throw new DatabaseUnavailableError();
      throw error;
    });
  }

  const direct = wrap(pool);
  return {
    kind: 'postgres',
    query: (sql, params) => inTurn(() => direct.query(sql, params)),
    exec: (sql) => inTurn(() => direct.exec(sql)),
    transaction: (fn) => inTurn((timeoutMs) => transaction(timeoutMs, fn)),
    runBatch: (statements, finish, options) =>
      options.readOnly
        ? readBatch(statements, finish)
        : inTurn((timeoutMs) => batch(timeoutMs, statements, finish, options)),
    close: () => pool.end(),
  };
}
