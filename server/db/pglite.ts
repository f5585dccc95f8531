import { PGlite, types } from '@electric-sql/pglite';
import { makeTreePrivate } from '../files/private-modes.ts';
import type { Database, Queryable, QueryResult, Row, ScopedDatabase } from './database.ts';
import { TEXT_KEPT_TYPES, settleBatch } from './database.ts';
import { BatchRunner } from './pglite-batch.ts';
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

/**
 * Opens PGlite on this thread, persisted in `dataDir` or in memory (optionally from a dumped
 * data directory). For the worker that hosts the server's database (pglite-worker.ts) and for
 * tools that open a stopped server's data directory; the server itself uses pglite-host.ts.
 * One caller on this thread: there are no turns and no deadlines, so its handles of every scope
 * run the same way, and it is a handle of the server's own work itself.
 */
export async function openPglite(
  options: {
    dataDir?: string;
    loadDataDir?: Blob | File;
    /** PGlite's WebAssembly already compiled (pglite-wasm.ts). */
    wasmModule?: WebAssembly.Module;
  } = {},
): Promise<Database & ScopedDatabase & { pglite: PGlite; batches: BatchRunner }> {
  const pglite = await PGlite.create({
    ...(options.wasmModule ? { pgliteWasmModule: options.wasmModule } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    parsers,
  });
  // Its file system writes a new database's files 0666, and caches 0644 at every start,
  // whatever the umask: take that back before anything is stored in them.
  if (options.dataDir) await makeTreePrivate(options.dataDir);
  // Every call through this interface counts as one that may write; a transaction counts once.
  const writeClock = new WriteClock();
  const base = wrap(pglite);
  const batches = new BatchRunner(pglite);
  const local: Database & ScopedDatabase & { pglite: PGlite; batches: BatchRunner } = {
    kind: 'pglite',
    scope: null,
    get database() {
      return local;
    },
    scoped: (scope) => ({ ...local, scope }),
    serverWork: () => local,
    pglite,
    batches,
    writeClock,
    query: (sql, params) => writeClock.around(() => base.query(sql, params)),
    exec: (sql) => writeClock.around(() => base.exec(sql)),
    transaction: (fn) => writeClock.around(() => pglite.transaction((tx) => fn(wrap(tx)))),
    runBatch: async (statements, finish, options) => {
      const run = async () =>
        settleBatch(
          await batches.run(statements, options.readOnly, options.rowsOf),
          finish,
          options,
          (commit) => batches.finish(commit),
        );
      return options.readOnly ? run() : writeClock.around(run);
    },
    close: () => pglite.close(),
  };
  return local;
}

export { types as pgliteTypes };
