import { protocol } from '@electric-sql/pglite';

const { serialize } = protocol;

/** Most statements kept prepared per database; the least recently used one is closed first. */
const MAX_STATEMENTS = 256;

/** What one batch did to the cache, so that a failed batch can be undone. */
export interface BatchStatements {
  /** Names parsed in this batch (they may or may not exist if the batch failed). */
  created: string[];
}

/**
 * Named prepared statements of one PGlite instance, by SQL text. The SQL a request shape
 * generates is the same every time (values are parameters), so parsing, analysing and planning
 * it once saves about a fifth of the database time of a small read. Postgres re-plans cached
 * statements after DDL by itself; a statement whose result columns changed fails with 0A000 and
 * is dropped by `forgetAll` before the request is retried (see pglite-batch.ts).
 */
export class StatementCache {
  private readonly names = new Map<string, string>();
  private counter = 0;

  /** Messages that bind `sql` with `values`, parsing it first when it is not prepared yet. */
  bind(sql: string, values: (string | null)[], batch: BatchStatements, parts: Uint8Array[]): void {
    let name = this.names.get(sql);
    if (name) {
      // Keep recently used statements at the end of the map (least recently used first).
      this.names.delete(sql);
      this.names.set(sql, name);
    } else {
      if (this.names.size >= MAX_STATEMENTS) {
        const [oldSql, oldName] = this.names.entries().next().value!;
        this.names.delete(oldSql);
        parts.push(serialize.close({ type: 'S', name: oldName }));
      }
      this.counter += 1;
      name = `pgrst_${this.counter}`;
      this.names.set(sql, name);
      batch.created.push(name);
      parts.push(serialize.parse({ name, text: sql }));
    }
    parts.push(serialize.bind({ statement: name, values }));
  }

  /** Forgets the statements a failed batch may have created; returns Close messages for them. */
  forget(batch: BatchStatements): Uint8Array[] {
    const created = new Set(batch.created);
    for (const [sql, name] of this.names) if (created.has(name)) this.names.delete(sql);
    return batch.created.map((name) => serialize.close({ type: 'S', name }));
  }

  /** Forgets every statement (after the database said one is gone or stale). */
  forgetAll(): Uint8Array[] {
    const closes = [...this.names.values()].map((name) => serialize.close({ type: 'S', name }));
    this.names.clear();
    return closes;
  }
}

/** Errors that mean a cached statement no longer fits the database: retry unprepared. */
export function isStaleStatement(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === '0A000' && String(message).includes('cached plan must not change result type')) ||
    (code === '26000' && String(message).includes('prepared statement'))
  );
}
