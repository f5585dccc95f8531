import { PGlite, types } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult, Row } from './database.ts';
import { TEXT_KEPT_TYPES } from './database.ts';
import { WriteClock } from './write-clock.ts';

const keepText = (value: string) => value;
const parsers = Object.fromEntries(Object.values(TEXT_KEPT_TYPES).map((oid) => [oid, keepText]));

function wrap(target: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await target.query<T>(sql, params as unknown[], { parsers });
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  };
}

/** Opens PGlite persisted in `dataDir`, or in memory (optionally from a dumped data directory). */
export async function openPglite(
  options: { dataDir?: string; loadDataDir?: Blob | File } = {},
): Promise<Database & { pglite: PGlite }> {
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    parsers,
  });
  // Every call through this interface counts as one that may write; a transaction counts once.
  // (The REST API's reads, which may not write, take their own path: rest/pglite-pipeline.ts.)
  const writeClock = new WriteClock();
  const base = wrap(pglite);
  return {
    kind: 'pglite',
    pglite,
    writeClock,
    query: (sql, params) => writeClock.around(() => base.query(sql, params)),
    exec: (sql) => writeClock.around(() => base.exec(sql)),
    transaction: (fn) => writeClock.around(() => pglite.transaction((tx) => fn(wrap(tx)))),
    close: () => pglite.close(),
  };
}

export { types as pgliteTypes };
