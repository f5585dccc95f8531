import type { Database } from '../db/database.ts';
import { loadSchemaCache } from './schema-load.ts';
import { FINGERPRINT_SQL } from './schema-sql.ts';
import type { SchemaCache } from './schema-types.ts';

/** The one schema `/rest/v1` exposes, as on a default Supabase project. */
export const EXPOSED_SCHEMA = 'public';

/**
 * Holds the schema cache of one database and keeps it fresh.
 *
 * Reload policy (PostgREST reloads on `NOTIFY pgrst`; we have no listener): the cache is read
 * lazily on the first request. When a request names a table, column, function or relationship
 * the cache does not know, the router calls `refreshIfChanged()`, which compares a cheap catalog
 * fingerprint with the one the cache was built from and reloads only when the catalog really
 * changed. Concurrent checks share one query, so a flood of requests with garbage names costs at
 * most one small catalog query each and never a full reload. `reload()` is the explicit hook.
 */
export class SchemaCacheHolder {
  private current: SchemaCache | null = null;
  private loading: Promise<SchemaCache> | null = null;
  private checking: Promise<boolean> | null = null;
  /** Bumped on every reload; callers key derived caches (compiled statements) on it. */
  version = 0;

  constructor(
    private readonly db: Database,
    readonly schema: string = EXPOSED_SCHEMA,
  ) {}

  /** The cache, loading it on first use. */
  get(): Promise<SchemaCache> | SchemaCache {
    return this.current ?? this.reload();
  }

  /** Reads the whole cache again from the catalog. */
  reload(): Promise<SchemaCache> {
    this.loading ??= loadSchemaCache(this.db, this.schema)
      .then((cache) => {
        this.current = cache;
        this.version += 1;
        return cache;
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  /** Reloads when the catalog changed since the cache was read; resolves to whether it did. */
  refreshIfChanged(): Promise<boolean> {
    this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async check(): Promise<boolean> {
    if (!this.current) {
      await this.reload();
      return true;
    }
    const { rows } = await this.db.query<{ fingerprint: string }>(FINGERPRINT_SQL, [this.schema]);
    if (rows[0]?.fingerprint === this.current.fingerprint) return false;
    await this.reload();
    return true;
  }
}

const holders = new WeakMap<Database, SchemaCacheHolder>();

/** The schema cache holder of `db` (one per database, shared by every app built on it). */
export function schemaCacheFor(db: Database): SchemaCacheHolder {
  let holder = holders.get(db);
  if (!holder) {
    holder = new SchemaCacheHolder(db);
    holders.set(db, holder);
  }
  return holder;
}

/**
 * Explicit reload hook, the equivalent of PostgREST's `NOTIFY pgrst, 'reload schema'`: call it
 * after changing the schema outside a request (for example after running migrations at runtime).
 */
export async function reloadSchemaCache(db: Database): Promise<void> {
  await schemaCacheFor(db).reload();
}
