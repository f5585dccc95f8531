import type { PGlite, Results } from '@electric-sql/pglite';
import { parse, protocol } from '@electric-sql/pglite';
import type { Database, Row } from '../db/database.ts';
import type { BatchStatements } from './pglite-statements.ts';
import { isStaleStatement, statementCacheOf } from './pglite-statements.ts';

const { serialize } = protocol;

export interface PipelineStatement {
  sql: string;
  params: readonly unknown[];
}

/** The PGlite instance behind `db`, when it is one (see server/db/pglite.ts). */
export function pgliteOf(db: Database): PGlite | null {
  const candidate = (db as Database & { pglite?: PGlite }).pglite;
  return db.kind === 'pglite' && candidate ? candidate : null;
}

function textValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

async function finishTransaction(pglite: PGlite, command: 'commit' | 'rollback'): Promise<void> {
  const { messages } = await pglite.execProtocol(
    concat([serialize.query(command), serialize.sync()]),
    {
      syncToFs: false,
    },
  );
  const done = messages.find((m) => m.name === 'commandComplete') as { text?: string } | undefined;
  // COMMIT of a transaction that failed answers ROLLBACK: nothing was written.
  if (command === 'commit' && done?.text === 'ROLLBACK')
    throw new Error('transaction was rolled back');
}

/** Rolls back after a failure; the failure is what the caller needs to see, not this. */
async function rollbackQuietly(pglite: PGlite): Promise<void> {
  await finishTransaction(pglite, 'rollback').catch(() => undefined);
}

export interface PipelineOptions {
  /**
   * The statements only read. They then run in the implicit transaction of one batch (committed
   * by its Sync), with no BEGIN or COMMIT: a single call into PGlite. `finish` may still throw
   * (nothing was written that could need rolling back).
   */
  readOnly: boolean;
}

/** Sends Close messages (and a Sync); closing a statement that does not exist is no error. */
async function closeStatements(pglite: PGlite, closes: Uint8Array[]): Promise<void> {
  if (closes.length === 0) return;
  await pglite
    .execProtocol(concat([...closes, serialize.sync()]), { syncToFs: false })
    .catch(() => undefined);
}

/**
 * Runs `statements` in one transaction with ONE round trip to embedded Postgres (one
 * extended-protocol batch: Bind/Describe/Execute per statement, one Sync), hands the last
 * statement's rows to `finish`, then, for writes, commits, or rolls back when a statement failed
 * or `finish` threw.
 *
 * This is `asCaller` plus one query in 1 call (reads) or 2 calls (writes) into PGlite instead of
 * about 16 (PGlite's `query` sends each protocol message separately, and `transaction` adds
 * BEGIN and COMMIT). Statements are prepared once and reused (pglite-statements.ts). It holds
 * PGlite's transaction and query locks throughout, so no other statement can run inside the
 * transaction. Every parameter is bound as text.
 */
export async function pipelinedTransaction<T>(
  pglite: PGlite,
  statements: PipelineStatement[],
  finish: (rows: Row[]) => T,
  options: PipelineOptions,
): Promise<T> {
  await pglite._checkReady();
  return pglite._runExclusiveTransaction(() =>
    pglite._runExclusiveQuery(async () => {
      try {
        return await runOnce(pglite, statements, finish, options);
      } catch (error) {
        if (!isStaleStatement(error)) throw error;
        // A prepared statement no longer fits (its table changed) or is gone: start afresh.
        await closeStatements(pglite, statementCacheOf(pglite).forgetAll());
        return runOnce(pglite, statements, finish, options);
      }
    }),
  );
}

async function runOnce<T>(
  pglite: PGlite,
  statements: PipelineStatement[],
  finish: (rows: Row[]) => T,
  options: PipelineOptions,
): Promise<T> {
  const explicit = !options.readOnly;
  const cache = statementCacheOf(pglite);
  const batch: BatchStatements = { created: [] };
  const parts: Uint8Array[] = explicit
    ? [serialize.parse({ text: 'begin' }), serialize.bind({}), serialize.execute({})]
    : [];
  for (const statement of statements) {
    cache.bind(statement.sql, statement.params.map(textValue), batch, parts);
    parts.push(serialize.describe({ type: 'P' }), serialize.execute({}));
  }
  parts.push(serialize.sync());
  let results: Results[];
  try {
    const { messages } = await pglite.execProtocol(concat(parts), { syncToFs: false });
    results = parse.parseResults(messages, pglite.parsers);
  } catch (error) {
    if (explicit) await rollbackQuietly(pglite);
    await closeStatements(pglite, cache.forget(batch));
    throw error;
  }
  let value: T;
  try {
    value = finish((results[results.length - 1]?.rows ?? []) as Row[]);
  } catch (error) {
    if (explicit) await rollbackQuietly(pglite);
    throw error;
  }
  if (explicit) await finishTransaction(pglite, 'commit');
  return value;
}
