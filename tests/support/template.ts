import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Queryable } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { EXPOSED_SCHEMA, readSchemaSeed, type SchemaSeed } from '../../server/rest/schema-cache.ts';

export const rootDir = path.resolve(import.meta.dirname, '../..');
export const migrationsDir = path.join(rootDir, 'supabase', 'migrations');
/** The living definition of every object (docs/data-model.md), applied in order. */
export const schemasDir = path.join(rootDir, 'supabase', 'schemas');
const platformDir = path.join(rootDir, 'server', 'db', 'platform');
const templatesDir = path.join(rootDir, '.tmp', 'templates');

/**
 * What a test database holds: `platform` is what a new Supabase project has (roles, auth and
 * storage schemas) and suits tests of the services themselves; `app` adds every migration;
 * `schemas` adds the files of supabase/schemas instead (for the drift test only).
 */
export type SchemaKind = 'platform' | 'app' | 'schemas';

const noMigrationsDir = path.join(rootDir, 'tests', 'support', 'no-migrations');
const migrationsFor = (kind: SchemaKind) =>
  ({ app: migrationsDir, schemas: schemasDir, platform: noMigrationsDir })[kind];

/**
 * Migrations are applied as hosted Supabase applies them: as a role that is not a superuser,
 * with what `postgres` may do there (server/db/platform/006-hosted-postgres.sql).
 */
export const HOSTED_MIGRATION_ROLE = 'hosted_postgres';

/**
 * What the PGlite template sets in its `postgresql.auto.conf`, which every copy then starts with.
 * Postgres zeroes its whole buffer pool when it starts (in WebAssembly an anonymous mapping is
 * memory set to zero), and PGlite's default of 128 MB cost a test server about 0.1 s of CPU at
 * every start for buffers a test database (about 13 MB) never fills. Only the tests' template:
 * the product keeps Postgres' default.
 */
const PGLITE_TEMPLATE_SETTINGS = "alter system set shared_buffers = '32MB'";

/** A hash of everything a migrated database is made from, to name the template after. */
export async function schemaHash(kind: SchemaKind): Promise<string> {
  const hash = createHash('sha256');
  hash.update(kind);
  for (const dir of [platformDir, migrationsFor(kind)]) {
    const files = (await readdir(dir).catch(() => [] as string[]))
      .filter((f) => f.endsWith('.sql'))
      .sort();
    for (const file of files) {
      hash.update(file);
      hash.update(await readFile(path.join(dir, file)));
    }
  }
  hash.update(await readFile(path.join(rootDir, 'server', 'db', 'migrate.ts')));
  hash.update(HOSTED_MIGRATION_ROLE);
  hash.update(PGLITE_TEMPLATE_SETTINGS);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A PGlite data directory with the platform SQL and all migrations applied, dumped once and
 * reused: loading the dump (about 1 s) is much faster than `initdb` plus migrations per file.
 * An uncompressed tar (45 MB rather than 6): PGlite takes a dump without a type for a tar, so a
 * gzipped one failed to untar before it was unpacked, costing 0.3 s of CPU at every start.
 */
export async function pgliteTemplate(kind: SchemaKind): Promise<string> {
  const file = path.join(templatesDir, `pglite-${kind}-${await schemaHash(kind)}.tar`);
  if (await stat(file).catch(() => null)) return file;
  // Servers started together in one process (the app tests' global set-up) build it once.
  let building = templatesBuilding.get(file);
  if (!building) {
    building = buildPgliteTemplate(kind, file).finally(() => templatesBuilding.delete(file));
    templatesBuilding.set(file, building);
  }
  return building;
}

const templatesBuilding = new Map<string, Promise<string>>();

async function buildPgliteTemplate(kind: SchemaKind, file: string): Promise<string> {
  await mkdir(templatesDir, { recursive: true });
  // Other processes (test workers) may build the same template at the same time.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  // The `schemas` template (the drift test's, built in the middle of a run) starts from a copy
  // of the `platform` one, whose platform SQL `migrate` then finds applied: a new PGlite
  // database's `initdb` and the platform SQL cost about 2.5 s of CPU, the copy opened 0.4 s.
  // The others are built at a run's start, side by side, each from a new database.
  const fromPlatform = kind === 'schemas' ? `${temp}.db` : null;
  if (fromPlatform) await copyPgliteTemplate('platform', fromPlatform);
  const db = await openPglite(fromPlatform ? { dataDir: fromPlatform } : {});
  try {
    await migrate(db, migrationsFor(kind), { asRole: HOSTED_MIGRATION_ROLE });
    await db.exec(PGLITE_TEMPLATE_SETTINGS);
    const dump = await db.pglite.dumpDataDir('none');
    await writeFile(temp, Buffer.from(await dump.arrayBuffer()));
    await rename(temp, file);
  } finally {
    await db.close();
    if (fromPlatform) await rm(fromPlatform, { recursive: true, force: true });
  }
  return file;
}

/**
 * The template unpacked once into a data directory's `db` folder, beside the dump: a test
 * server's database starts as a copy of it (`copyPgliteTemplate`). PGlite loading the dump
 * writes its ~1,400 files one by one through its WebAssembly file system; `cp` copies them for a
 * fraction of that (a server's database opened for 1.1–1.6 s of CPU instead of 1.6–2.2 s,
 * load 14; `cp` itself 0.05 s against 0.3 s for Node's `fs.cp`).
 */
export async function pgliteTemplateDir(kind: SchemaKind): Promise<string> {
  const dump = await pgliteTemplate(kind);
  const dir = dump.replace(/\.tar$/, '.db');
  if (await stat(dir).catch(() => null)) return dir;
  let unpacking = templatesUnpacking.get(dir);
  if (!unpacking) {
    unpacking = unpackPgliteTemplate(dump, dir).finally(() => templatesUnpacking.delete(dir));
    templatesUnpacking.set(dir, unpacking);
  }
  return unpacking;
}

const templatesUnpacking = new Map<string, Promise<string>>();

async function unpackPgliteTemplate(dump: string, dir: string): Promise<string> {
  // Other processes (test workers) may unpack the same template at the same time: the first
  // rename wins, and the others' copies are removed.
  const temp = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const db = await openPglite({ dataDir: temp, loadDataDir: new Blob([await readFile(dump)]) });
    await db.close();
    await rename(temp, dir).catch(async (error: NodeJS.ErrnoException) => {
      if (!(await stat(dir).catch(() => null))) throw error;
    });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  return dir;
}

/**
 * The REST schema cache of the template (`SchemaSeed`), which a test server's first request
 * then does not read from the catalog again while the catalog is still the template's: it cost
 * every test server about 0.1 s of CPU on its new, cold PGlite instance. Read once from a copy of
 * the template and kept beside it as JSON, named after the code that reads the rows; each caller
 * gets its own copy of the rows.
 */
export async function pgliteTemplateSeed(kind: SchemaKind): Promise<SchemaSeed> {
  const dir = await pgliteTemplateDir(kind);
  const hash = createHash('sha256');
  for (const file of ['schema-sql.ts', 'schema-load.ts', 'schema-cache.ts']) {
    hash.update(await readFile(path.join(rootDir, 'server', 'rest', file)));
  }
  const file = `${dir}.schema-${hash.digest('hex').slice(0, 16)}.json`;
  let text = seedTexts.get(file);
  if (!text) {
    text = readFile(file, 'utf8').catch(() => writeSeed(dir, file));
    seedTexts.set(file, text);
    text.catch(() => seedTexts.delete(file));
  }
  return JSON.parse(await text) as SchemaSeed;
}

const seedTexts = new Map<string, Promise<string>>();

async function writeSeed(templateDir: string, file: string): Promise<string> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await promisify(execFile)('cp', ['-Rp', templateDir, temp]);
    const db = await openPglite({ dataDir: temp });
    let text: string;
    try {
      text = JSON.stringify(await readSchemaSeed(db, EXPOSED_SCHEMA));
    } finally {
      await db.close();
    }
    // Other processes may write the same seed at the same time: the last rename wins.
    await writeFile(`${temp}.json`, text);
    await rename(`${temp}.json`, file);
    return text;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** Copies the template's unpacked database to `dbDir` (which must not exist yet), modes kept. */
export async function copyPgliteTemplate(kind: SchemaKind, dbDir: string): Promise<void> {
  await promisify(execFile)('cp', ['-Rp', await pgliteTemplateDir(kind), dbDir]);
}

/** The admin connection string of a PostgreSQL server for the PostgreSQL run, if any. */
export const postgresAdminUrl = (): string | undefined =>
  process.env.TEST_DATABASE_URL || undefined;

function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A migrated template database on the PostgreSQL server, created once per schema hash. */
export async function postgresTemplate(adminUrl: string, kind: SchemaKind): Promise<string> {
  const name = `steward_tpl_${kind}_${await schemaHash(kind)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount) return name;
    const building = `${name}_building_${process.pid}`;
    await admin.query(`drop database if exists "${building}"`);
    await admin.query(`create database "${building}"`);
    const db = await openPostgres(databaseUrl(adminUrl, building));
    try {
      await migrate(db, migrationsFor(kind), { asRole: HOSTED_MIGRATION_ROLE });
    } finally {
      await db.close();
    }
    await admin.query(`alter database "${building}" rename to "${name}"`);
    return name;
  } finally {
    await admin.end();
  }
}

/**
 * The REST schema cache of the PostgreSQL template of `kind` (`SchemaSeed`, see
 * `pgliteTemplateSeed`), read once per process from `db`, a database just copied from that
 * template that nothing has used yet (the template itself must not be connected to: `create
 * database … template` refuses a template in use). Transaction ids are the cluster's, so a row
 * changed in any copy since is newer than every row of the template, as the digest needs.
 */
export async function postgresTemplateSeed(db: Queryable, kind: SchemaKind): Promise<SchemaSeed> {
  const key = `${kind}-${await schemaHash(kind)}`;
  let text = seedTexts.get(key);
  if (!text) {
    text = readSchemaSeed(db, EXPOSED_SCHEMA).then((seed) => JSON.stringify(seed));
    seedTexts.set(key, text);
    text.catch(() => seedTexts.delete(key));
  }
  return JSON.parse(await text) as SchemaSeed;
}

/**
 * A fresh database copied from the migrated template (or empty, with `empty: true`); dropped by
 * the returned function.
 */
export async function freshPostgresDatabase(
  adminUrl: string,
  options: { empty?: boolean; schema?: SchemaKind } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = options.empty
    ? 'template1'
    : await postgresTemplate(adminUrl, options.schema ?? 'app');
  const name = `steward_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${template}"`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(adminUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
