import { PGlite, types } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult, Row } from './database.ts';
import { TEXT_KEPT_TYPES } from './database.ts';
import { WriteClock } from './write-clock.ts';

const keepText = (value: string) => value;
const parsers = Object.fromEntries(Object.values(TEXT_KEPT_TYPES).map((oid) => [oid, keepText]));

// Every call through this interface counts as one that may write (the REST API's reads, which
// may not, take their own path: server/rest/pglite-pipeline.ts).
function wrap(target: Pick<PGlite, 'query' | 'exec'>, clock: WriteClock): Queryable {
  return {
    query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      return clock.around(async () => {
        const result = await target.query<T>(sql, params as unknown[], { parsers });
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
      });
    },
    exec(sql: string) {
      return clock.around(async () => {
        await target.exec(sql);
      });
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
  const writeClock = new WriteClock();
  const base = wrap(pglite, writeClock);
  return {
    kind: 'pglite',
    pglite,
    writeClock,
    ...base,
    transaction: (fn) =>
      writeClock.around(() => pglite.transaction((tx) => fn(wrap(tx, writeClock)))),
    close: () => pglite.close(),
  };
}

export { types as pgliteTypes };
