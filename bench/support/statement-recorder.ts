/**
 * What Steward really sends to its database, recorded in the server's own process (the child of
 * bench/rest-read.bench.ts), so the floor is measured with those very statements rather than a
 * retyped copy. Two levels: every query the `pg` driver writes to PostgreSQL (transaction
 * control included), and every batch the REST service hands to `db.runBatch` (what the PGlite
 * worker runs). Recording is off, and nothing is wrapped, except between `startRecording` and
 * `stopRecording`.
 */
import pg from 'pg';
import type { Database, ScopedDatabase, Statement } from '../../server/db/database.ts';
import { wrapHandles } from '../../tests/support/db-handles.ts';
import { MessageGroup } from '../../server/db/message-group.ts';

/**
 * One `pg` query as it went on the wire: one statement with its own Sync (text and bound
 * values, none for a simple query), or a message group's statements under one Sync.
 */
export interface WireQuery {
  statements: Statement[];
  oneSync: boolean;
}

export interface Recording {
  /** Each `pg` query in the order sent. */
  wire: WireQuery[];
  /** The statements of each `runBatch` call. */
  batches: Statement[][];
}

let current: Recording | null = null;

type QueryConfig = { text?: unknown; values?: unknown };

// node-postgres' only entry for a statement; the pool's clients all go through it.
const sendQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
const recordingQuery = function (this: pg.Client, ...args: unknown[]) {
  if (current) {
    const [config, values] = args as [string | QueryConfig, unknown];
    if (config instanceof MessageGroup) {
      const statements = config.statements.map((s) => ({ sql: s.sql, params: [...s.params] }));
      current.wire.push({ statements, oneSync: true });
    } else {
      const text = typeof config === 'string' ? config : config.text;
      const params = typeof config === 'string' ? values : config.values;
      if (typeof text === 'string') {
        const statement = { sql: text, params: Array.isArray(params) ? [...params] : [] };
        current.wire.push({ statements: [statement], oneSync: false });
      }
    }
  }
  return sendQuery.apply(this, args);
} as typeof pg.Client.prototype.query;

/**
 * Records the batches `db` runs (wraps its handles' `runBatch`) and every `pg` query; returns
 * the function that puts both back. Installed only while recording: a wrapped handle per
 * request (eight closures) cost the server's main thread about 2.5 % of its busy time under the
 * distinct read (bench/RESULTS.md), which no production server pays.
 */
function recordCalls(db: Database): () => void {
  pg.Client.prototype.query = recordingQuery;
  const unwrap = wrapHandles(db, (handle) => ({
    ...pick(handle),
    runBatch: (statements, finish, options) => {
      current?.batches.push(statements.map((s) => ({ sql: s.sql, params: [...s.params] })));
      return handle.runBatch(statements, finish, options);
    },
  }));
  return () => {
    unwrap();
    pg.Client.prototype.query = sendQuery as typeof pg.Client.prototype.query;
  };
}

/** The handle's own members, bound to it. */
const pick = (handle: ScopedDatabase): ScopedDatabase => ({
  kind: handle.kind,
  scope: handle.scope,
  database: handle.database,
  ...(handle.writeClock ? { writeClock: handle.writeClock } : {}),
  query: (sql, params) => handle.query(sql, params),
  exec: (sql) => handle.exec(sql),
  transaction: (fn) => handle.transaction(fn),
  runBatch: (statements, finish, options) => handle.runBatch(statements, finish, options),
});

let stopCalls: (() => void) | null = null;

/** Starts recording what `db` is sent (a recording already running starts afresh). */
export function startRecording(db: Database): void {
  stopCalls ??= recordCalls(db);
  current = { wire: [], batches: [] };
}

export function stopRecording(): Recording {
  const recording = current ?? { wire: [], batches: [] };
  current = null;
  stopCalls?.();
  stopCalls = null;
  return recording;
}
