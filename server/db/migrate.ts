import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from './database.ts';

const platformDir = path.join(import.meta.dirname, 'platform');

export interface MigrationReport {
  platform: string[];
  migrations: string[];
}

async function sqlFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  return names.filter((name) => name.endsWith('.sql')).sort();
}

/** One file of `supabase/migrations`. */
export interface MigrationFile {
  file: string;
  version: string;
  name: string;
  /**
   * For a baseline made by `scripts/squash-migrations.ts`: the migrations it replaced
   * (`<version>_<name>`), listed in its header as `-- squashed: …` lines. A database that has
   * them recorded already holds what the baseline makes.
   */
  squashed: string[];
  sql: string;
}

const SQUASHED_LINE = /^-- squashed: (\d+_\S*)$/gm;

/** The migrations of `dir`, in the order they apply. */
export async function migrationFiles(dir: string): Promise<MigrationFile[]> {
  const files: MigrationFile[] = [];
  for (const file of await sqlFiles(dir)) {
    const match = /^(\d+)_?(.*)\.sql$/.exec(file);
    if (!match) throw new Error(`Migration file name must start with a version: ${file}`);
    const sql = await readFile(path.join(dir, file), 'utf8');
    const squashed = [...sql.matchAll(SQUASHED_LINE)].map((line) => line[1]!);
    files.push({ file, version: match[1]!, name: match[2]!, squashed, sql });
  }
  return files;
}

/** Every migration version `dir` accounts for: its files' and those their baselines replaced. */
export async function knownMigrationVersions(dir: string): Promise<string[]> {
  const versions = new Set<string>();
  for (const migration of await migrationFiles(dir)) {
    versions.add(migration.version);
    for (const name of migration.squashed) versions.add(name.split('_')[0]!);
  }
  return [...versions].sort();
}

/**
 * A baseline must not run on a database that holds some of the migrations it replaced but not
 * all of them (made by an older Steward that stopped short of the baseline's version): its
 * objects exist already. Such a database is brought up to date by the Steward that still has
 * those migrations; this says so instead of failing half-way.
 */
function refusePartialSquash(migration: MigrationFile, recorded: Set<string>): void {
  const replaced = migration.squashed.map((name) => name.split('_')[0]!);
  const present = replaced.filter((version) => recorded.has(version));
  if (present.length === 0) return;
  const missing = migration.squashed.filter((name) => !recorded.has(name.split('_')[0]!));
  throw new Error(
    `This database was made by an older Steward: it has migrations up to ${present.at(-1)}, ` +
      `but not ${missing.join(', ')}, which ${migration.file} replaces. Start the Steward ` +
      'release from before that migration was squashed on this data once, so that it applies ' +
      'them, then this one.',
  );
}

export interface MigrateOptions {
  /**
   * Applies `supabase/migrations` as this role instead of the connection's superuser: the tests
   * pass `hosted_postgres` (platform SQL `006-hosted-postgres.sql`), the rights `supabase db push`
   * has on a hosted project. The server itself keeps migrating as before, so that objects of an
   * existing installation keep one owner.
   */
  asRole?: string;
}

/**
 * Applies the platform SQL (what a hosted Supabase project already has) and then
 * `supabase/migrations/*.sql` in order. Each file runs once, in its own transaction, and is
 * recorded the way the Supabase CLI records migrations, so a second run does nothing.
 */
export async function migrate(
  database: Database,
  migrationsDir: string,
  options: MigrateOptions = {},
): Promise<MigrationReport> {
  // The server's own work: no request's deadline, however long a migration runs.
  const db = database.serverWork();
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key, statements text[], name text
    );
    create schema if not exists _platform;
    create table if not exists _platform.migrations (
      name text primary key, applied_at timestamptz not null default now()
    );
  `);
  const report: MigrationReport = { platform: [], migrations: [] };

  for (const file of await sqlFiles(platformDir)) {
    const sql = await readFile(path.join(platformDir, file), 'utf8');
    const applied = await db.transaction(async (tx) => {
      // Serialises concurrent start-ups against one PostgreSQL database.
      await tx.query('select pg_advisory_xact_lock(7305)');
      const done = await tx.query('select 1 from _platform.migrations where name = $1', [file]);
      if (done.rows.length > 0) return false;
      await tx.exec(sql);
      await tx.query('insert into _platform.migrations (name) values ($1)', [file]);
      return true;
    });
    if (applied) report.platform.push(file);
  }

  for (const migration of await migrationFiles(migrationsDir)) {
    const { file, version, name, sql } = migration;
    const applied = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(7305)');
      const { rows } = await tx.query<{ version: string }>(
        'select version from supabase_migrations.schema_migrations',
      );
      const recorded = new Set(rows.map((row) => row.version));
      if (recorded.has(version)) return false;
      refusePartialSquash(migration, recorded);
      if (options.asRole) await tx.exec(`set local role "${options.asRole.replace(/"/g, '""')}"`);
      await tx.exec(sql);
      if (options.asRole) await tx.exec('reset role');
      await tx.query(
        'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
        [version, name, [sql]],
      );
      return true;
    });
    if (applied) report.migrations.push(file);
  }
  return report;
}
