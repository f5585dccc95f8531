import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import {
  freshPostgresDatabase,
  HOSTED_MIGRATION_ROLE,
  migrationsDir,
  postgresAdminUrl,
} from '../support/template.ts';

// `supabase db push` runs migrations as `postgres`, which is not a superuser on a hosted project.
// The tests apply supabase/migrations as `hosted_postgres`, which has what `postgres` has there
// (server/db/platform/006-hosted-postgres.sql): a migration that would fail on deploy fails here.

let db: Database;
let drop: (() => Promise<void>) | undefined;
let version = 20261127001100;

beforeAll(async () => {
  const adminUrl = postgresAdminUrl();
  const empty = adminUrl ? await freshPostgresDatabase(adminUrl, { empty: true }) : null;
  drop = empty?.drop;
  db = empty ? await openPostgres(empty.url) : await openPglite();
  await migrate(db, migrationsDir, { asRole: HOSTED_MIGRATION_ROLE });
}, 120_000);
afterAll(async () => {
  await db?.close();
  await drop?.();
});

/** Applies `sql` as the next migration, as the tests apply migrations. */
async function apply(sql: string): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'steward-migration-'));
  try {
    version += 1;
    await writeFile(path.join(dir, `${version}_probe.sql`), sql);
    await migrate(db, dir, { asRole: HOSTED_MIGRATION_ROLE });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('migrations with the rights of a hosted project', () => {
  it("apply every migration as hosted_postgres, which owns the app's objects", async () => {
    const { rows } = await db.serverWork().query<{ owner: string; count: number }>(
      `select pg_get_userbyid(c.relowner) as owner, count(*)::int as count
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'v', 'S')
        group by 1`,
    );
    expect(rows.map((row) => row.owner)).toEqual([HOSTED_MIGRATION_ROLE]);
    const role = await db
      .serverWork()
      .query<{ rolsuper: boolean }>('select rolsuper from pg_roles where rolname = $1', [
        HOSTED_MIGRATION_ROLE,
      ]);
    expect(role.rows).toEqual([{ rolsuper: false }]);
  });

  it('allow policies and triggers on storage.objects and triggers on auth.users', async () => {
    await expect(
      apply(`
        create policy "probe reads" on storage.objects for select to authenticated
          using (bucket_id = 'probe');
        create function public.probe_touch() returns trigger language plpgsql
          as $$ begin return new; end $$;
        create trigger probe_on_objects before update on storage.objects
          for each row execute function public.probe_touch();
        create trigger probe_on_users before update on auth.users
          for each row execute function public.probe_touch();
        drop trigger probe_on_objects on storage.objects;
        drop policy "probe reads" on storage.objects;
      `),
    ).resolves.toBeUndefined();
  });

  it('refuse a direct DELETE on storage tables unless storage.allow_delete_query is set', async () => {
    await expect(
      apply(`delete from storage.objects where bucket_id = 'probe'`),
    ).rejects.toMatchObject({
      code: '42501',
      message: 'Direct deletion from storage tables is not allowed. Use the Storage API instead.',
    });
    await expect(apply(`delete from storage.buckets where id = 'probe'`)).rejects.toMatchObject({
      code: '42501',
    });
    await expect(
      apply(`
        select set_config('storage.allow_delete_query', 'true', true);
        delete from storage.buckets where id = 'probe';
      `),
    ).resolves.toBeUndefined();
  });

  it.each([
    ['a column on storage.objects', 'alter table storage.objects add column note text'],
    ['an index on storage.objects', 'create index probe_idx on storage.objects (created_at)'],
    ['dropping storage.buckets', 'drop table storage.buckets cascade'],
    [
      'a function in the storage schema',
      'create function storage.probe() returns int language sql as $$ select 1 $$',
    ],
    ['a column on auth.users', 'alter table auth.users add column nickname text'],
    [
      'an event trigger',
      'create event trigger probe on ddl_command_end execute function public.probe_touch()',
    ],
    ['a new role with superuser', 'create role probe_admin superuser'],
  ])('refuse %s, as a hosted project does', async (_what, sql) => {
    await expect(apply(sql)).rejects.toMatchObject({ code: '42501' });
  });
});
