import type { Database, ScopedDatabase } from '../../server/db/database.ts';

/**
 * Makes every handle `db` gives from now on (`scoped`, `serverWork`) pass through `wrap`, so a
 * test can see the calls of each scope (the scope travels with the handle). Handles made before
 * are not seen. Returns the function that puts `db` back.
 */
export function wrapHandles(
  db: Database,
  wrap: (handle: ScopedDatabase) => ScopedDatabase,
): () => void {
  const originals = { scoped: db.scoped, serverWork: db.serverWork };
  const scoped = db.scoped.bind(db);
  const serverWork = db.serverWork.bind(db);
  Object.assign(db, {
    scoped: ((scope) => wrap(scoped(scope))) satisfies Database['scoped'],
    serverWork: (() => wrap(serverWork())) satisfies Database['serverWork'],
  });
  return () => Object.assign(db, originals);
}

/**
 * `handle` with its calls reported to `record` first: `runBatch` as 'read' or
 * 'write, then <ends>', the others by name.
 */
export function recordingHandle(
  handle: ScopedDatabase,
  record: (call: string, handle: ScopedDatabase, sqlOrParams: unknown) => void,
): ScopedDatabase {
  return {
    kind: handle.kind,
    scope: handle.scope,
    database: handle.database,
    ...(handle.writeClock ? { writeClock: handle.writeClock } : {}),
    query: (sql, params) => (record('query', handle, { sql, params }), handle.query(sql, params)),
    exec: (sql) => (record('exec', handle, { sql }), handle.exec(sql)),
    transaction: (fn) => (record('transaction', handle, null), handle.transaction(fn)),
    runBatch: (statements, finish, options) => {
      record(options.readOnly ? 'read' : `write, then ${String(options.ends)}`, handle, statements);
      return handle.runBatch(statements, finish, options);
    },
  };
}
