import type { Database, Queryable } from '../db/database.ts';
import {
  buildSchemaCache,
  loadSchemaCache,
  readSchemaRows,
  type SchemaRows,
} from './schema-load.ts';
import { CATALOG_DIGEST_SQL, FINGERPRINT_SQL } from './schema-sql.ts';
import type { SchemaCache } from './schema-types.ts';

/** The one schema `/rest/v1` exposes, as on a default Supabase project. */
export const EXPOSED_SCHEMA = 'public';

/**
 * The schema cache's rows as read from one database, with a digest of that database's catalog
 * (`CATALOG_DIGEST_SQL`): a copy of the database whose catalog still has the same digest has the
 * same cache, without the catalog queries (about 0.1 s of CPU on a new PGlite instance, whose
 * catalog caches are cold). Test servers start from copies of one migrated template.
 */
export interface SchemaSeed {
  schema: string;
  digest: string;
  rows: SchemaRows;
}

const catalogDigest = async (db: Queryable) =>
  (await db.query<{ digest: string }>(CATALOG_DIGEST_SQL)).rows[0]?.digest ?? '';

/** Reads the seed of `schema` from `db`, on which nothing else may run meanwhile. */
export async function readSchemaSeed(db: Queryable, schema: string): Promise<SchemaSeed> {
  const digest = await catalogDigest(db);
  return { schema, digest, rows: await readSchemaRows(db, schema) };
}

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
  /** Rows read from the database this one was copied from, for the first load only. */
  private seeded: SchemaSeed | null = null;
  /** Bumped on every reload; callers key derived caches (compiled statements) on it. */
  version = 0;

  constructor(readonly schema: string = EXPOSED_SCHEMA) {}

  /**
   * The cache, loading it on first use. `db` is the handle of the request asking: a load or
   * a check it starts runs in that request's turn and deadline (others asking meanwhile share it).
   */
  get(db: Queryable): Promise<SchemaCache> | SchemaCache {
    return this.current ?? this.reload(db);
  }

  /**
   * Hands the holder the cache of the database `db` was copied from, used by the first load if
   * the catalog's digest is still the seed's (else the load reads the catalog as usual).
   */
  seed(seed: SchemaSeed): void {
    if (seed.schema === this.schema && !this.current) this.seeded = seed;
  }

  /** Reads the whole cache again from the catalog (the first time maybe from the seed). */
  reload(db: Queryable): Promise<SchemaCache> {
    this.loading ??= this.read(db)
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

  private async read(db: Queryable): Promise<SchemaCache> {
    const seed = this.seeded;
    this.seeded = null;
    if (seed && (await catalogDigest(db)) === seed.digest) {
      return buildSchemaCache(this.schema, seed.rows);
    }
    return loadSchemaCache(db, this.schema);
  }

  /** Reloads when the catalog changed since the cache was read; resolves to whether it did. */
  refreshIfChanged(db: Queryable): Promise<boolean> {
    this.checking ??= this.check(db).finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async check(db: Queryable): Promise<boolean> {
    if (!this.current) {
      await this.reload(db);
      return true;
    }
    const { rows } = await db.query<{ fingerprint: string }>(FINGERPRINT_SQL, [this.schema]);
    if (rows[0]?.fingerprint === this.current.fingerprint) return false;
    await this.reload(db);
    return true;
  }
}

const holders = new WeakMap<Database, SchemaCacheHolder>();

/** The schema cache holder of `db` (one per database, shared by every app built on it). */
export function schemaCacheFor(db: Database): SchemaCacheHolder {
  let holder = holders.get(db);
  if (!holder) {
    holder = new SchemaCacheHolder();
    holders.set(db, holder);
  }
  return holder;
}

/**
 * Explicit reload hook, the equivalent of PostgREST's `NOTIFY pgrst, 'reload schema'`: call it
 * after changing the schema outside a request (for example after running migrations at runtime).
 */
export async function reloadSchemaCache(db: Database): Promise<void> {
  await schemaCacheFor(db).reload(db.serverWork());
}
