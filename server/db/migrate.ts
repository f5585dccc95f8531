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
  db: Database,
  migrationsDir: string,
  options: MigrateOptions = {},
): Promise<MigrationReport> {
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

  for (const file of await sqlFiles(migrationsDir)) {
    const match = /^(\d+)_?(.*)\.sql$/.exec(file);
    if (!match) throw new Error(`Migration file name must start with a version: ${file}`);
    const [, version, name] = match;
    const sql = await readFile(path.join(migrationsDir, file), 'utf8');
    const applied = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(7305)');
      const done = await tx.query(
        'select 1 from supabase_migrations.schema_migrations where version = $1',
        [version],
      );
      if (done.rows.length > 0) return false;
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
