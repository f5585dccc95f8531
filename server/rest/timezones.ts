import type { Database, ScopedDatabase } from '../db/database.ts';

const loaded = new WeakMap<Database, Promise<ReadonlySet<string>>>();

/**
 * The time zones `Prefer: timezone=` may name: `pg_timezone_names`, as PostgREST 12 to 14 check
 * them (by exact name). Read once per database, on the first request that names one; the list
 * comes with the server's time zone files and changes only with them. Read through `db`, the
 * handle of that request: in its turn, within its deadline.
 */
export function timezoneNames(db: ScopedDatabase): Promise<ReadonlySet<string>> {
  const { database } = db;
  let names = loaded.get(database);
  if (!names) {
    names = db
      .query<{ name: string }>('select name from pg_timezone_names')
      .then(({ rows }) => new Set(rows.map((row) => row.name)));
    // A failed read (the database busy or restarting) is tried again by the next request.
    names.catch(() => loaded.delete(database));
    loaded.set(database, names);
  }
  return names;
}
