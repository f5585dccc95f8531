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
  isPostgresError,
  settleBatch,
  settleEndedBatch,
  statementTimeoutError,
} from './database.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { FairQueue, QueueTimeoutError } from './fair-queue.ts';
import { compiledPglite } from './pglite-wasm.ts';
import type { RequestScope } from './request-scope.ts';
import { laneOf } from './request-scope.ts';
import { WorkerConnection } from './worker-connection.ts';
import type { GateAccess } from './worker-gate.ts';
import { WorkerGate } from './worker-gate.ts';
import { WriteClock } from './write-clock.ts';

export interface PgliteHostOptions {
  /** The data directory; it must hold no other PGlite instance (see data-dir-lock.ts). */
  dataDir: string;
  /** A dumped data directory to create the database from (tests start from a template). */
  loadDataDir?: Uint8Array;
  /** How long one request's database work may run, per role, in milliseconds (default: no limit). */
  timeoutsMs?: Record<TimedRole, number>;
}

type Request = Parameters<WorkerConnection['request']>[0];

/** What a turn's work may do: write (see write-clock.ts), and how it uses the worker. */
interface JobKind {
  mayWrite: boolean;
  access: GateAccess;
}
/**
 * A read-only batch: one message, which writes nothing and is complete when answered, so it may
 * wait in the worker behind another (worker-gate.ts).
 */
const ONE_READ: JobKind = { mayWrite: false, access: 'shared' };
/**
 * One statement, or a writing batch the worker ends itself: one message, complete when
 * answered, after everything before it; reads may wait in the worker behind it.
 */
const ONE_WRITE: JobKind = { mayWrite: true, access: 'first' };
/** Transactions over several messages, and anything else that may write: the worker alone. */
const MAY_WRITE: JobKind = { mayWrite: true, access: 'alone' };
/** The server's own reading that must see the database as one moment (a dump, the floor). */
const ALONE_READING: JobKind = { mayWrite: false, access: 'alone' };
/** Callers' turns running at once (see `#queue`). */
const TURNS_AT_ONCE = 2;
/**
 * A caller whose reads each keep the worker this long or longer (two of its last three) gets
 * one turn at a time for a while (fair-queue.ts): another caller's read then waits behind at
 * most one of its reads, as when each caller had one turn.
 */
const LONG_TURN_MS = 20;

/**
 * The embedded database seen from the thread that serves HTTP: PGlite runs in a worker thread
 * (pglite-worker.ts), so a long statement never stops the server from answering other requests.
 *
 * PGlite is one Postgres session, so the work of requests runs one at a time, taking turns
 * between callers (fair-queue.ts); only a second read may already wait in the worker while it
 * runs another (worker-gate.ts). Each request's work has a deadline by role, counted
 * from when the worker reaches it; a read waiting behind work whose deadline ended the worker
 * is answered "busy" (503), as a caller who got no turn is. PGlite cannot
 * interrupt a statement (`statement_timeout` is ignored, and it has no cancel API), so when a
 * deadline passes mid-statement the worker is ended and a new one opens the same data
 * directory: the statement fails with Postgres' "statement timeout" error, its transaction is
 * rolled back by recovery, and no acknowledged commit is lost (measured: see
 * docs/architecture.md). Never two workers at once: the old one has stopped before the new one
 * opens the directory.
 */
export class PgliteHost implements Database {
  readonly kind = 'pglite' as const;
  readonly writeClock = new WriteClock();
  /**
   * Two turns at once: while the worker runs one read, the next may already wait in the worker
   * (see worker-gate.ts); anything else has the worker alone. Both may be one caller's, whose
   * next read then waits in the worker behind its previous one instead of the worker idling
   * while the thread that serves HTTP sends it (a caller alone, as one user's page loading,
   * or bench/rest-read's distinct read); another caller's work takes the next turn that ends
   * (turns go round the callers), and a caller whose reads run long has one turn at a time.
   */
  readonly #queue = new FairQueue({
    concurrency: TURNS_AT_ONCE,
    perLane: TURNS_AT_ONCE,
    heavyTaskMs: LONG_TURN_MS,
  });
  readonly #gate = new WorkerGate();
  #connection: WorkerConnection;
  #restarting: Promise<void> | null = null;
  #closed = false;
  /** How often the worker was replaced (for tests and logs). */
  restarts = 0;

  private constructor(
    private readonly options: PgliteHostOptions,
    private readonly unlock: () => Promise<void>,
    private readonly wasmModule: WebAssembly.Module,
  ) {
    this.#connection = this.#spawn(options.loadDataDir);
  }

  /** Opens the data directory in a new worker, holding its lock until `close`. */
  static async open(options: PgliteHostOptions): Promise<PgliteHost> {
    const wasmModule = await compiledPglite();
    const unlock = await lockDataDir(options.dataDir);
    const host = new PgliteHost(options, unlock, wasmModule);
    try {
      await host.#connection.started;
    } catch (error) {
      await host.#connection.terminate(error as Error);
      await unlock();
      throw error;
    }
    return host;
  }

  scoped(scope: RequestScope): ScopedDatabase {
    return new HostHandle(this, scope);
  }

  readonly #serverWork = new HostHandle(this, null);
  serverWork(): ScopedDatabase {
    return this.#serverWork;
  }

  /** `Queryable.query` in `scope` (`null`: the server's own work); see `HostHandle`. */
  queryIn<T = Row>(
    scope: RequestScope | null,
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<QueryResult<T>> {
    // One statement outside any transaction block: complete (committed) when answered.
    return this.#job(ONE_WRITE, scope, (session) => session.query<T>(sql, params));
  }

  execIn(scope: RequestScope | null, sql: string): Promise<void> {
    return this.#job(MAY_WRITE, scope, async (session) => {
      await session.send({ op: 'exec', sql });
    });
  }

  transactionIn<T>(scope: RequestScope | null, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.#job(MAY_WRITE, scope, async (session) => {
      await session.send({ op: 'query', sql: 'begin', params: [] }, { opens: true });
      let result: T;
      try {
        result = await fn(session);
      } catch (error) {
        await session.finish(false);
        throw error;
      }
      await session.finish(true);
      return result;
    });
  }

  runBatchIn<T>(
    scope: RequestScope | null,
    statements: Statement[],
    finish: (rows: Row[]) => T,
    options: BatchOptions,
  ): Promise<T> {
    const { readOnly, ends, rowsOf } = options;
    const kind = readOnly ? ONE_READ : ends ? ONE_WRITE : MAY_WRITE;
    return this.#job(kind, scope, async (session) => {
      const batch = {
        op: 'batch',
        statements,
        readOnly,
        ...(options.bytesColumn !== undefined ? { bytesColumn: options.bytesColumn } : {}),
        ...(ends ? { ends } : {}),
        ...(rowsOf === undefined ? {} : { rowsOf }),
      } as const;
      // A writing batch whose end its rows decide is ended by the worker in the same message;
      // any other stays open until `finish` has decided, a second message.
      const ended = readOnly || ends !== undefined;
      const answer = await session.send(batch, { opens: !ended });
      if (!readOnly && ends) return settleEndedBatch(answer.rows, finish, ends);
      return settleBatch(answer.rows, finish, options, (commit) => session.finish(commit));
    });
  }

  /**
   * How many times a second the worker runs the read-only `statements` when it runs nothing
   * else, looping by itself for `seconds` in one turn of its own: the floor a REST read through
   * this database can approach (bench/rest-read.bench.ts). Outside any request's deadline.
   */
  floorOf(statements: Statement[], seconds: number): Promise<number> {
    return this.#job(ALONE_READING, null, async (session) => {
      const started = performance.now();
      const answer = await session.send({ op: 'repeat', statements, seconds });
      return answer.rowCount / ((performance.now() - started) / 1000);
    });
  }

  /**
   * Runs `read` and then writes the whole database to `file` in one turn of its own, so what
   * `read` saw is exactly what the dump holds (nothing else runs on the database in between).
   * The server's own work: no request deadline applies, however large the database.
   */
  dumpWith<T>(file: string, read: (db: Queryable) => Promise<T>): Promise<T> {
    return this.#job(ALONE_READING, null, async (session) => {
      const result = await read(session);
      await session.send({ op: 'dump', file });
      return result;
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#restarting?.catch(() => undefined);
    await this.#connection.request({ op: 'close' }).catch(() => undefined);
    await this.#connection.terminate(new Error('the database is closed'));
    await this.unlock();
  }

  /**
   * Runs `body` when it is the caller's turn, with the caller's deadline. The turn ends when
   * the body ends or when its deadline has been dealt with, whichever comes first, so a body
   * stuck outside the database cannot hold the database.
   */
  async #job<T>(
    kind: JobKind,
    scope: RequestScope | null,
    body: (session: Session) => Promise<T>,
  ): Promise<T> {
    if (this.#closed) throw new DatabaseUnavailableError('the database is closed');
    const timeoutMs =
      scope && this.options.timeoutsMs ? this.options.timeoutsMs[scope.role] : Infinity;
    let outcome!: Promise<T>;
    const queuedAt = performance.now();
    const turn = () =>
      this.#queue.run(
        laneOf(scope),
        async () => {
          // The other turn's work may hold the worker: the wait for it counts as the wait for
          // a turn, within the caller's deadline.
          const waited = performance.now() - queuedAt;
          const { leave, ahead } = await this.#gate.enter(kind.access, timeoutMs - waited);
          try {
            const session = new Session(this);
            outcome = body(session);
            await session.untilDoneOrExpired(outcome, timeoutMs, ahead);
          } finally {
            leave();
          }
        },
        timeoutMs,
      );
    try {
      await (kind.mayWrite ? this.writeClock.around(turn) : turn());
    } catch (error) {
      if (error instanceof QueueTimeoutError) throw new DatabaseUnavailableError();
      throw error;
    }
    return outcome;
  }

  /** The worker to send to, once any restart has finished. */
  async connection(): Promise<WorkerConnection> {
    while (this.#restarting) await this.#restarting.catch(() => undefined);
    return this.#connection;
  }

  /** Ends the worker (failing what it runs with `reason`) and opens the directory again. */
  restart(reason: Error): Promise<void> {
    this.#restarting ??= (async () => {
      this.restarts += 1;
      await this.#connection.terminate(reason);
      if (this.#closed) return;
      const started = performance.now();
      this.#connection = this.#spawn();
      await this.#connection.started;
      console.warn(
        `database: worker restarted in ${Math.round(performance.now() - started)} ms (${reason.message})`,
      );
    })().finally(() => {
      this.#restarting = null;
    });
    return this.#restarting;
  }

  #spawn(loadDataDir?: Uint8Array): WorkerConnection {
    return new WorkerConnection(
      {
        dataDir: this.options.dataDir,
        wasmModule: this.wasmModule,
        ...(loadDataDir ? { loadDataDir } : {}),
      },
      (error) => {
        // A worker that died by itself (out of memory in WebAssembly, say): open a new one.
        if (this.#closed || this.#restarting) return;
        console.error('database: the worker stopped unexpectedly:', error);
        this.restart(error).catch((restartError: unknown) =>
          console.error('database: the worker could not be restarted:', restartError),
        );
      },
    );
  }
}

/** A handle on the host whose work runs in `scope` (`Database.scoped`, `serverWork`). */
class HostHandle implements ScopedDatabase {
  readonly kind = 'pglite' as const;
  readonly writeClock: WriteClock;

  constructor(
    private readonly host: PgliteHost,
    readonly scope: RequestScope | null,
  ) {
    this.writeClock = host.writeClock;
  }

  get database(): Database {
    return this.host;
  }

  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
    return this.host.queryIn<T>(this.scope, sql, params);
  }

  exec(sql: string): Promise<void> {
    return this.host.execIn(this.scope, sql);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.host.transactionIn(this.scope, fn);
  }

  runBatch<T>(
    statements: Statement[],
    finish: (rows: Row[]) => T,
    options: BatchOptions,
  ): Promise<T> {
    return this.host.runBatchIn(this.scope, statements, finish, options);
  }
}

/**
 * One turn's use of the worker: tracks whether a request is in flight and whether a
 * transaction is open, so that a passed deadline ends exactly what it must.
 */
class Session implements Queryable {
  #inFlight = 0;
  #transactionOpen = false;
  #expired = false;

  constructor(private readonly host: PgliteHost) {}

  async query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
    const answer = await this.send({ op: 'query', sql, params });
    return { rows: answer.rows as T[], rowCount: answer.rowCount };
  }

  async exec(sql: string): Promise<void> {
    await this.send({ op: 'exec', sql });
  }

  /**
   * Ends the open transaction. After the deadline the deadline has ended it already: a commit
   * then fails with the timeout, a rollback does nothing.
   */
  async finish(commit: boolean): Promise<void> {
    if (this.#expired) {
      if (commit) throw statementTimeoutError();
      return;
    }
    if (!this.#transactionOpen) throw new Error('no transaction is open');
    this.#transactionOpen = false;
    await this.send({ op: 'finish', commit });
  }

  /** Sends a request of this turn; nothing after the deadline, which ends the turn. */
  async send(
    request: Request,
    flags: { opens?: boolean } = {},
  ): ReturnType<WorkerConnection['request']> {
    if (this.#expired) throw statementTimeoutError();
    return this.#sendNow(request, flags);
  }

  async #sendNow(
    request: Request,
    flags: { opens?: boolean } = {},
  ): ReturnType<WorkerConnection['request']> {
    const connection = await this.host.connection();
    this.#inFlight += 1;
    try {
      const answer = await connection.request(request);
      if (flags.opens && !this.#expired) this.#transactionOpen = true;
      return answer;
    } catch (error) {
      // The deadline of the work ahead of this message in the worker ended the worker before
      // this message ran: the database was busy, which is no timeout of this caller's.
      if (!this.#expired && isPostgresError(error) && error.code === '57014') {
        throw new DatabaseUnavailableError();
      }
      throw error;
    } finally {
      this.#inFlight -= 1;
    }
  }

  /**
   * Resolves when `outcome` settles, or at the deadline once its work has been stopped. The
   * deadline counts from when the work `ahead` of it in the worker has been answered: its
   * message waited in the worker until then, and must not end that work by its own clock.
   */
  async untilDoneOrExpired(
    outcome: Promise<unknown>,
    timeoutMs: number,
    ahead: Promise<void>,
  ): Promise<void> {
    const done = outcome.then(
      () => 'done' as const,
      () => 'done' as const,
    );
    if (!Number.isFinite(timeoutMs)) {
      await done;
      return;
    }
    if ((await Promise.race([done, ahead])) === 'done') return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), timeoutMs);
    });
    const first = await Promise.race([done, deadline]);
    clearTimeout(timer);
    if (first === 'done') return;
    // From here on the body can send nothing more: what it started is ended here, once.
    this.#expired = true;
    const open = this.#transactionOpen;
    this.#transactionOpen = false;
    if (this.#inFlight > 0) {
      // Mid-statement: only ending the worker stops it. Its open transaction goes with it.
      await this.host.restart(statementTimeoutError()).catch(() => undefined);
    } else if (open) {
      await this.#sendNow({ op: 'finish', commit: false }).catch(() => undefined);
    }
  }
}
