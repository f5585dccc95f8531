import type { PGlite, Results } from '@electric-sql/pglite';
import { parse, protocol } from '@electric-sql/pglite';
import pgUtils from 'pg/lib/utils.js';
import type { Row, Statement } from './database.ts';
import type { BatchStatements } from './pglite-statements.ts';
import { StatementCache, isStaleStatement } from './pglite-statements.ts';

const { serialize } = protocol;

/**
 * A bound value's text, as node-postgres sends it to PostgreSQL (arrays as array literals,
 * dates with their offset, objects as JSON), so a statement means the same on either database;
 * bytes as bytea's hex text, since every value of the batch goes in text format.
 */
function textValue(value: unknown): string | null {
  if (typeof value === 'string') return value;
  const prepared = pgUtils.prepareValue(value);
  if (prepared === null || typeof prepared === 'string') return prepared;
  return `\\x${prepared.toString('hex')}`;
}

/** A value whose text form is what PGlite's `query` would send for it too, whatever its type. */
export function isTextValue(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'boolean'
  );
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

/**
 * Runs a request's statements in ONE round trip to embedded Postgres: one extended-protocol
 * batch (Bind/Describe/Execute per statement, one Sync), with statements prepared once and
 * reused (pglite-statements.ts). PGlite's `query` sends each protocol message separately and
 * `transaction` adds BEGIN and COMMIT: about 16 calls into WebAssembly for what this does in 1
 * (reads) or 2 (writes). Only the worker that owns PGlite uses it, one batch at a time.
 */
export class BatchRunner {
  readonly #cache = new StatementCache();

  constructor(private readonly pglite: PGlite) {}

  /**
   * Runs `statements` and returns the rows of statement `rowsOf` (default the last). A
   * read-only batch runs in the implicit transaction of its Sync (no BEGIN or COMMIT) and is
   * complete when this returns; any other opens a transaction that stays open until `finish`.
   * On failure nothing is left open.
   */
  async run(statements: Statement[], readOnly: boolean, rowsOf?: number): Promise<Row[]> {
    return ((await this.#run(statements, readOnly, rowsOf)).rows ?? []) as Row[];
  }

  /**
   * One statement, as `query` of PGlite answers it (rows and affected rows), in one call into
   * WebAssembly and prepared once, where PGlite's own `query` makes about eight calls and parses
   * every time. Inside a transaction block it stays in that block. Only for values sent as text
   * unchanged (`isTextValue`): PGlite's `query` writes arrays, dates and bytes by their type.
   * Outside a transaction block the statement is prepared once and kept (StatementCache).
   */
  async query(sql: string, params: readonly unknown[]): Promise<{ rows: Row[]; rowCount: number }> {
    const result = await this.#run([{ sql, params }], true);
    const rows = (result.rows ?? []) as Row[];
    return { rows, rowCount: result.affectedRows ?? rows.length };
  }

  #run(statements: Statement[], readOnly: boolean, rowsOf?: number): Promise<Results> {
    return this.pglite.runExclusive(async () => {
      // Inside a transaction block a statement is parsed afresh: a prepared one that no longer
      // fits its table would abort the block, and no retry could succeed there.
      if (this.pglite.isInTransaction()) return this.#runOnce(statements, readOnly, false, rowsOf);
      try {
        return await this.#runOnce(statements, readOnly, true, rowsOf);
      } catch (error) {
        if (!isStaleStatement(error)) throw error;
        // A prepared statement no longer fits (its table changed) or is gone: start afresh.
        await this.#close(this.#cache.forgetAll());
        return this.#runOnce(statements, readOnly, true, rowsOf);
      }
    });
  }

  /** Commits or rolls back the transaction a writing batch left open. */
  async finish(commit: boolean): Promise<void> {
    const messages = await this.pglite.execProtocolStream(
      concat([serialize.query(commit ? 'commit' : 'rollback'), serialize.sync()]),
      { syncToFs: false },
    );
    const done = messages.find((m) => m.name === 'commandComplete') as
      { text?: string } | undefined;
    // COMMIT of a transaction that failed answers ROLLBACK: nothing was written.
    if (commit && done?.text === 'ROLLBACK') throw new Error('transaction was rolled back');
  }

  async #runOnce(
    statements: Statement[],
    readOnly: boolean,
    prepared: boolean,
    rowsOf = statements.length - 1,
  ): Promise<Results> {
    const batch: BatchStatements = { created: [] };
    const parts: Uint8Array[] = readOnly
      ? []
      : [serialize.parse({ text: 'begin' }), serialize.bind({}), serialize.execute({})];
    for (const statement of statements) {
      const values = statement.params.map(textValue);
      if (prepared) this.#cache.bind(statement.sql, values, batch, parts);
      else parts.push(serialize.parse({ text: statement.sql }), serialize.bind({ values }));
      parts.push(serialize.describe({ type: 'P' }), serialize.execute({}));
    }
    parts.push(serialize.sync());
    let results: Results[];
    try {
      // The stream form parses each piece Postgres writes straight from PGlite's memory;
      // `execProtocol` copies every piece twice more and the whole answer once, which is most
      // of the PGlite worker's garbage on a read (bench/RESULTS.md, `i12-stream` and `i13-stream`).
      const messages = await this.pglite.execProtocolStream(concat(parts), { syncToFs: false });
      results = parse.parseResults(messages, this.pglite.parsers);
    } catch (error) {
      if (!readOnly) await this.finish(false).catch(() => undefined);
      await this.#close(this.#cache.forget(batch));
      throw error;
    }
    // One result per statement, after BEGIN's in a writing batch.
    return results[rowsOf + (readOnly ? 0 : 1)] ?? { rows: [], fields: [] };
  }

  /** Sends Close messages (and a Sync); closing a statement that does not exist is no error. */
  async #close(closes: Uint8Array[]): Promise<void> {
    if (closes.length === 0) return;
    await this.pglite
      .execProtocolStream(concat([...closes, serialize.sync()]), { syncToFs: false })
      .catch(() => undefined);
  }
}
