import pg from 'pg';
import type { TimedRole } from '../config.ts';
import type {
  BatchOptions,
  Database,
  Queryable,
  QueryResult,
  Row,
  ScopedDatabase,
  Statement,
} from './database.ts';
import {
  DatabaseUnavailableError,
  TEXT_KEPT_TYPES,
  encodeColumn,
  isPostgresError,
  settleBatch,
} from './database.ts';
import type { HoldPlace } from './fair-queue.ts';
import { FairQueue, QueueTimeoutError } from './fair-queue.ts';
import { MessageGroup } from './message-group.ts';
import { PreparedNames } from './prepared-names.ts';
import type { RequestScope } from './request-scope.ts';
import { laneOf } from './request-scope.ts';

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
 * Statements a connection keeps prepared for the REST batches (least recently used closed
 * first): each holds its plan in the backend's memory.
 */
export const PREPARED_PER_CONNECTION = 100;

/**
 * Postgres' answer to a prepared statement whose result a migration changed ("cached plan must
 * not change result type"), told by the function that raises it whatever the server's language.
 */
const isStalePlan = (error: unknown) =>
  isPostgresError(error) &&
  error.code === '0A000' &&
  (error as { routine?: string }).routine === 'RevalidateCachedQuery';

/**
 * Read groups of one caller that may be on one connection at once (`SharedReads`): the one the
 * database runs and one written behind it. More would let a caller's write wait behind a pile
 * of reads already written.
 */
const READS_IN_FLIGHT = 2;

/**
 * One connection carrying a caller's reads, each a message group of its own (one Sync, its own
 * implicit transaction), up to READS_IN_FLIGHT written at once: the next is written before the
 * previous answer is back (`MessageGroup.writeAhead`), so the database starts it as soon as it
 * has finished the one before instead of idling while this process turns an answer into a
 * response. `drained` resolves when none is left and no other joined (`takeNext`, asked
 * whenever there is room), so the connection can go back to the pool.
 */
class SharedReads {
  #inFlight = 0;
  /**
   * Groups written ahead that node-postgres has not made its current query yet (the one before
   * failed, and its ReadyForQuery is still to come): none is added behind them, since
   * node-postgres queues no more than one query behind the current one without complaint.
   */
  #queuedInDriver = 0;
  /** When the database finished the previous group (or the connection was taken). */
  #previousDone = performance.now();
  #drain!: () => void;
  readonly drained = new Promise<void>((resolve) => (this.#drain = resolve));

  constructor(
    private readonly client: pg.PoolClient,
    private readonly names: PreparedNames | undefined,
    private readonly takeNext: () => boolean,
  ) {}

  /**
   * Sends one read and, while there is room, the caller's next waiting; resolves with
   * `finish`'s value and the time the database spent on this read (from when it could start
   * it), which counts towards the heavy-caller rule.
   */
  async send<T>(
    statements: Statement[],
    answerAt: number,
    finish: (rows: Row[]) => T,
  ): Promise<{ value: T; busyMs: number }> {
    const sentAt = performance.now();
    this.#inFlight += 1;
    let rows: Row[] | undefined;
    let busyMs: number;
    try {
      for (let attempt = 1; rows === undefined; attempt += 1) {
        const group = new MessageGroup(statements, typeParsers, this.names, answerAt);
        // Behind another group still on its way: written now, and queued for node-postgres
        // to match its answer (its own submit then sends nothing).
        if (this.#inFlight > 1) {
          this.#queuedInDriver += 1;
          group.writeAhead(this.client.connection, () => {
            this.#queuedInDriver -= 1;
            queueMicrotask(() => this.#fill());
          });
        }
        this.client.query(group);
        if (attempt === 1) this.#fill();
        try {
          rows = await group.rows;
        } catch (error) {
          // A result a migration changed: sent once more, every statement parsed afresh.
          if (attempt === 1 && this.names && isStalePlan(error)) this.names.clear();
          else throw error;
        }
      }
    } finally {
      // The database's time on this read: from when it could start it (the read before it
      // answered) to its answer.
      const now = performance.now();
      busyMs = now - Math.max(sentAt, this.#previousDone);
      this.#previousDone = now;
      // Counted once, whatever happened: the connection goes back to the pool only when no
      // read is left on it (a miscount would hand it over with a read still on its way).
      this.#done();
    }
    // `finish` may throw (a REST refusal): the read is off the connection already.
    return { value: finish(rows), busyMs };
  }

  /** Writes the caller's next reads while there is room for them. */
  #fill(): void {
    while (this.#inFlight < READS_IN_FLIGHT && this.#queuedInDriver === 0 && this.takeNext());
  }

  #done(): void {
    this.#inFlight -= 1;
    this.#fill();
    if (this.#inFlight === 0) this.#drain();
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
  /**
   * Keep the REST batches' statements prepared on each connection (default true); false for a
   * pooler in transaction mode that does not carry prepared statements across transactions.
   */
  preparedStatements?: boolean;
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
  const prepare = options.preparedStatements ?? true;
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
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
  /** Runs `fn` in the turn of `scope`'s caller, with its time limit (0: none). */
  async function inTurn<T>(
    scope: RequestScope | null,
    fn: (timeoutMs: number) => Promise<T>,
  ): Promise<T> {
    const timeoutMs = scope && timeouts ? timeouts[scope.role] : 0;
    try {
      return await queue.run(laneOf(scope), () => fn(timeoutMs), timeoutMs || Infinity);
    } catch (error) {
      if (error instanceof QueueTimeoutError) throw new DatabaseUnavailableError();
      throw error;
    }
  }

  /** The statements prepared on each of the pool's connections. */
  const preparedNames = new WeakMap<pg.PoolClient, PreparedNames>();

  /** Opens the caller's transaction, its time limit set locally (the number is ours). */
  const beginSql = (timeoutMs: number) =>
    `begin; set local statement_timeout = ${Math.round(timeoutMs)}`;
  /** The same time limit as a statement of a message group (`set local` is `set_config`'s). */
  const timeLimitStatement = (timeoutMs: number): Statement => ({
    sql: `select set_config('statement_timeout', $1, true)`,
    params: [String(Math.round(timeoutMs))],
  });

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
   * A writing batch of the REST fast path in one round trip: BEGIN, the time limit and the
   * statements go as one message group with one Sync (message-group.ts); the first error is the
   * one reported. A batch whose end is known before `finish` (`options.ends`) ends in the same
   * group; any other keeps its transaction open for `finish` and ends it in a second round trip,
   * as PGlite does. Reads go through `readBatch`.
   */
  async function batch<T>(
    timeoutMs: number,
    statements: Statement[],
    finish: (rows: Row[]) => T,
    options: BatchOptions,
  ): Promise<T> {
    const client = await pool.connect();
    // A write that commits whatever `finish` says (`ends: 'commit'`) runs in the group's
    // implicit transaction, committed at its Sync: one round trip. A write that is undone
    // (`ends: 'rollback'`) carries its ROLLBACK in the group; any other write keeps its
    // transaction open for `finish` and ends in a second round trip.
    const implicit = options.ends === 'commit';
    const rollsBack = options.ends === 'rollback';
    try {
      const all = [
        ...(implicit ? [] : [{ sql: 'begin', params: [] }]),
        timeLimitStatement(timeoutMs),
        ...statements,
        ...(rollsBack ? [{ sql: 'rollback', params: [] }] : []),
      ];
      // The rows `finish` gets (`rowsOf`, default the last statement's), after the time limit.
      const answerAt = (implicit ? 0 : 1) + 1 + (options.rowsOf ?? statements.length - 1);
      let names = preparedNames.get(client);
      if (!names && prepare) {
        preparedNames.set(client, (names = new PreparedNames(PREPARED_PER_CONNECTION)));
      }
      let rows: Row[] | undefined;
      for (let attempt = 1; rows === undefined; attempt += 1) {
        const group = new MessageGroup(all, typeParsers, names, answerAt);
        client.query(group);
        try {
          rows = await group.rows;
        } catch (error) {
          // A failing statement skips the rest of the group, its ROLLBACK too.
          if (!implicit) await client.query('rollback').catch(() => undefined);
          // Nothing of the group was kept: it is sent once more, every statement parsed afresh.
          if (attempt === 1 && names && isStalePlan(error)) names.clear();
          else throw error;
        }
      }
      // Ended in the group already: `finish` only turns the rows into the answer.
      const ended = implicit || rollsBack;
      return await settleBatch(rows, finish, options, async (commit) => {
        if (!ended) await client.query(commit ? 'commit' : 'rollback');
      });
    } finally {
      client.release();
    }
  }

  /**
   * A read-only batch in the caller's turn. Its connection stays the caller's while its answer
   * is on the way, and takes the caller's next reads waiting in the queue (`joinNext`), written
   * before the previous answer is back (`SharedReads`). The caller still holds at most its
   * share of connections, only reads join (a write waits for a place of its own, behind at
   * most READS_IN_FLIGHT reads per connection), and joining stops as soon as another caller
   * waits for a place.
   */
  function readBatch<T>(
    scope: RequestScope | null,
    statements: Statement[],
    finish: (rows: Row[]) => T,
    options: BatchOptions,
  ): Promise<T> {
    const lane = laneOf(scope);
    const timeoutMs = scope && timeouts ? timeouts[scope.role] : 0;
    const all = [timeLimitStatement(timeoutMs), ...statements];
    // The rows `finish` gets (`rowsOf`, default the last statement's), after the time limit.
    const answerAt = 1 + (options.rowsOf ?? statements.length - 1);
    const { bytesColumn } = options;
    const answer = (rows: Row[]) => {
      if (bytesColumn !== undefined) encodeColumn(rows, bytesColumn);
      return finish(rows);
    };
    const joined = async (reads: SharedReads) => {
      const { value, busyMs } = await reads.send(all, answerAt, answer);
      queue.noteDuration(lane, busyMs);
      return value;
    };
    const first = async (hold: HoldPlace) => {
      const client = await pool.connect();
      let names = preparedNames.get(client);
      if (!names && prepare) {
        preparedNames.set(client, (names = new PreparedNames(PREPARED_PER_CONNECTION)));
      }
      const reads: SharedReads = new SharedReads(client, names, () => queue.joinNext(lane, reads));
      hold(reads.drained.finally(() => client.release()));
      return (await reads.send(all, answerAt, answer)).value;
    };
    return queue.run(lane, first, timeoutMs || Infinity, joined).catch((error: unknown) => {
      if (error instanceof QueueTimeoutError) throw new DatabaseUnavailableError();
      throw error;
    });
  }

  const direct = wrap(pool);
  /** A handle whose work runs in `scope` (`null`: the server's own). */
  const handle = (scope: RequestScope | null): ScopedDatabase => ({
    kind: 'postgres',
    scope,
    database,
    query: (sql, params) => inTurn(scope, () => direct.query(sql, params)),
    exec: (sql) => inTurn(scope, () => direct.exec(sql)),
    transaction: (fn) => inTurn(scope, (timeoutMs) => transaction(timeoutMs, fn)),
    runBatch: (statements, finish, options) =>
      options.readOnly
        ? readBatch(scope, statements, finish, options)
        : inTurn(scope, (timeoutMs) => batch(timeoutMs, statements, finish, options)),
  });
  const database: Database = {
    kind: 'postgres',
    scoped: handle,
    serverWork: () => serverWork,
    close: () => pool.end(),
  };
  const serverWork = handle(null);
  return database;
}
