import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareCatalogues, readCatalogue } from '../../scripts/schema/catalogue.ts';
import type { Database, Queryable } from '../../server/db/database.ts';
import { knownMigrationVersions, migrate, type MigrateOptions } from '../../server/db/migrate.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import {
  copyPgliteTemplate,
  freshPostgresDatabase,
  HOSTED_MIGRATION_ROLE,
  migrationsDir,
  postgresAdminUrl,
  rootDir,
} from '../support/template.ts';
import { scratchDir } from '../support/scratch.ts';

// The 34 migrations up to 20261127001201 were squashed into one baseline of that version
// (scripts/squash-migrations.ts); the files themselves are kept in a fixture. A database they
// made, holding an organisation's data, takes the new supabase/migrations/ with nothing lost
// and ends with the catalogue of a new database. On PGlite it is a data directory made the way
// `npm start` makes one (as the superuser) and reopened as after a restart; on PostgreSQL a
// database migrated as hosted Supabase migrates (`hosted_postgres`).

const fixture = path.join(rootDir, 'tests', 'fixtures', 'migrations-20261127001201.tar.gz');
const adminUrl = postgresAdminUrl();
const options: MigrateOptions = adminUrl ? { asRole: HOSTED_MIGRATION_ROLE } : {};

/** The migrations written since the squash: a database of the old migrations takes these. */
async function migrationsSinceSquash(): Promise<string[]> {
  return (await readdir(migrationsDir))
    .filter((file) => file.endsWith('.sql') && file.split('_')[0]! > '20261127001201')
    .sort();
}

let workDir: string;
let oldMigrations: string;
const dropLater: (() => Promise<void>)[] = [];

/** A PGlite data directory as a new database's first start leaves it (made in `beforeAll`). */
let emptyPgliteDir: string;
let databases = 0;

/**
 * A new, empty database of the kind this run uses, opened (PGlite in `dataDir` if given). On
 * PGlite a copy of `emptyPgliteDir`, the same files a first start writes: a new PGlite data
 * directory cost about 2 s of CPU (its `initdb`), a copy opened about 0.4 s.
 */
async function emptyDatabase(dataDir?: string): Promise<Database> {
  if (!adminUrl) {
    const dir = dataDir ?? path.join(workDir, `empty-${++databases}`);
    await promisify(execFile)('cp', ['-Rp', emptyPgliteDir, dir]);
    return openPglite({ dataDir: dir });
  }
  const fresh = await freshPostgresDatabase(adminUrl, { empty: true });
  dropLater.push(fresh.drop);
  return openPostgres(fresh.url);
}

/**
 * A new database of today's migrations: a copy of the tests' migrated template (template.ts),
 * which `migrate` made of supabase/migrations/ (as `hosted_postgres`; the catalogue leaves
 * owners out) and is named after their contents, instead of migrating another from scratch.
 */
async function newDatabase(): Promise<Database> {
  if (!adminUrl) {
    const dir = path.join(workDir, `new-${++databases}`);
    await copyPgliteTemplate('app', dir);
    return openPglite({ dataDir: dir });
  }
  const fresh = await freshPostgresDatabase(adminUrl);
  dropLater.push(fresh.drop);
  return openPostgres(fresh.url);
}

/** Runs `sql` as the signed-in user `id`, as the REST API runs a request. */
async function asUser<T = Record<string, unknown>>(
  db: Database,
  id: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return db.serverWork().transaction(async (tx) => {
    const claims = JSON.stringify({ sub: id, role: 'authenticated', aal: 'aal1' });
    await tx.query(
      "select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)",
      [claims],
    );
    return (await tx.query<T>(sql, params)).rows;
  });
}

const alice = '00000000-0000-4000-8000-00000000000a';
const bob = '00000000-0000-4000-8000-00000000000b';
const carol = '00000000-0000-4000-8000-00000000000c';

/** Two organisations with members, documents, a renewal, a text, the trash and history. */
async function seed(db: Database): Promise<void> {
  for (const [id, email] of [
    [alice, 'alice@grace.example'],
    [bob, 'bob@grace.example'],
    [carol, 'carol@hope.example'],
  ]) {
    await db.serverWork().query(
      `insert into auth.users (id, email, aud, role, created_at, updated_at)
       values ($1, $2, 'authenticated', 'authenticated', now(), now())`,
      [id, email],
    );
  }
  const [grace] = await asUser<{ id: string }>(
    db,
    alice,
    "select id from public.create_organization('Grace Church')",
  );
  await asUser(db, carol, "select public.create_organization('Hope Chapel')");
  const [invitation] = await asUser<{ token: string }>(
    db,
    alice,
    "select token from public.invite_user('bob@grace.example', 'admin', 'Bob Builder')",
  );
  await asUser(db, bob, 'select public.accept_invitation($1)', [invitation!.token]);
  await asUser(
    db,
    alice,
    "update public.user_profiles set full_name = 'Alice Founder' where id = $1",
    [alice],
  );

  const folder = `documents/${grace!.id}`;
  for (const [name, version] of [
    ['policy.pdf', 'v1'],
    ['policy-2027.pdf', 'v2'],
    ['minutes.txt', 'v3'],
  ]) {
    await db.serverWork().query(
      `insert into storage.objects (bucket_id, name, owner, metadata, version)
       values ('documents', $1, $2, jsonb_build_object('size', 1000, 'mimetype', 'application/pdf'), $3)`,
      [`${folder}/${name}`, alice, version],
    );
  }
  const [policy] = await asUser<{ id: string }>(
    db,
    alice,
    `insert into public.documents (organization_id, name, category, file_path, tags, expiry_date)
     values ($1, 'Safeguarding policy', 'HR', $2, '{policy,safeguarding}', '2026-12-31')
     returning id`,
    [grace!.id, `${folder}/policy.pdf`],
  );
  const [minutes] = await asUser<{ id: string }>(
    db,
    bob,
    `insert into public.documents (organization_id, name, category, file_path, description)
     values ($1, 'Board minutes', 'Governance', $2, 'The minutes of the board') returning id`,
    [grace!.id, `${folder}/minutes.txt`],
  );
  await asUser(db, alice, "select public.renew_document($1, $2, '2027-12-31')", [
    policy!.id,
    `${folder}/policy-2027.pdf`,
  ]);
  await db.serverWork().query(
    `select private.record_document_text(t.document_id, t.object_version, 'ready', null,
                                         'Minutes of the meeting of the board', 1, false)
       from public.document_texts t where t.document_id = $1`,
    [minutes!.id],
  );
  await asUser(db, alice, 'select public.delete_documents($1)', [[minutes!.id]]);
  await asUser(
    db,
    alice,
    `insert into public.reminder_settings (organization_id, days_before, time_zone)
     values ($1, '{14,1}', 'Europe/London')`,
    [grace!.id],
  );
  await asUser(db, alice, "select public.create_calendar_feed('all')");
}

/** Every row of every table of the app's schemas and of the auth and storage tables it fills. */
async function rowsOf(db: Queryable): Promise<Record<string, unknown[]>> {
  const { rows: tables } = await db.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r'
        and (n.nspname in ('public', 'private')
             or (n.nspname, c.relname) in (('auth', 'users'), ('storage', 'objects'), ('storage', 'buckets')))
      order by 1`,
  );
  const all: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    const { rows } = await db.query<{ rows: unknown[] }>(
      `select coalesce(jsonb_agg(to_jsonb(t) order by to_jsonb(t)::text), '[]') as rows from ${name} t`,
    );
    all[name] = rows[0]!.rows;
  }
  return all;
}

/**
 * `after` read with only the tables and columns `before` has: the migrations written since the
 * squash add tables and columns, and nothing that was there may be lost or changed.
 */
function asBefore(
  after: Record<string, unknown[]>,
  before: Record<string, unknown[]>,
): Record<string, unknown[]> {
  const projected: Record<string, unknown[]> = {};
  for (const [table, rows] of Object.entries(before)) {
    const columns = Object.keys((rows[0] ?? {}) as object);
    projected[table] = (after[table] ?? [])
      .map((row) =>
        Object.fromEntries(
          columns.map((column) => [column, (row as Record<string, unknown>)[column]]),
        ),
      )
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return projected;
}

/**
 * `before` with what the migrations since the squash change on purpose in rows that were
 * there, and nothing else: the `branding` bucket takes PNG, JPEG and WebP images up to 5 MiB
 * (2026112800330001_logo_images.sql).
 */
function intended(before: Record<string, unknown[]>): Record<string, unknown[]> {
  const changed = { ...before };
  changed['storage.buckets'] = (before['storage.buckets'] ?? []).map((row) => {
    const bucket = row as Record<string, unknown>;
    return bucket.id === 'branding'
      ? {
          ...bucket,
          file_size_limit: 5242880,
          allowed_mime_types: ['image/svg+xml', 'image/png', 'image/jpeg', 'image/webp'],
        }
      : bucket;
  });
  return changed;
}

beforeAll(async () => {
  workDir = await scratchDir('steward-upgrade-');
  oldMigrations = path.join(workDir, 'old-migrations');
  await mkdir(oldMigrations);
  await extract({ file: fixture, cwd: oldMigrations });
  if (!adminUrl) {
    emptyPgliteDir = path.join(workDir, 'empty');
    await (await openPglite({ dataDir: emptyPgliteDir })).close();
  }
});
afterAll(async () => {
  for (const drop of dropLater) await drop();
  await rm(workDir, { recursive: true, force: true });
});

describe("a database made by the migrations before they were squashed (today's)", () => {
  it('upgrades with nothing lost and ends with the catalogue of a new database', async () => {
    expect((await readdir(oldMigrations)).filter((f) => f.endsWith('.sql'))).toHaveLength(34);
    const dataDir = path.join(workDir, 'db');
    let db = await emptyDatabase(dataDir);
    await migrate(db, oldMigrations, options);
    await seed(db);
    if (!adminUrl) {
      await db.close();
      db = await openPglite({ dataDir });
    }
    try {
      const before = await rowsOf(db.serverWork());
      expect(before['public.documents']).toHaveLength(2);
      expect(before['public.document_versions']).toHaveLength(1);
      expect(before['public.user_profiles']).toHaveLength(3);
      expect(before['public.activity_log']!.length).toBeGreaterThan(4);

      const report = await migrate(db, migrationsDir, options);
      expect(report).toEqual({ platform: [], migrations: await migrationsSinceSquash() });
      expect(asBefore(await rowsOf(db.serverWork()), before)).toEqual(intended(before));
      // The storage quota's running totals start as what the objects already there take
      // (20261202010000_storage_running_totals.sql): Grace Church's three files of 1,000 bytes.
      const { rows: totals } = await db.serverWork().query<{ name: string | null; bytes: string }>(
        `select o.name, t.bytes::text as bytes from private.organization_storage_totals t
           left join public.organizations o on o.id = t.organization_id`,
      );
      expect(totals).toEqual([{ name: 'Grace Church', bytes: '3000' }]);

      const fresh = await newDatabase();
      try {
        const differences = compareCatalogues(
          await readCatalogue(db.serverWork()),
          await readCatalogue(fresh.serverWork()),
          ['upgraded', 'new'],
        );
        expect(differences.join('\n')).toBe('');
      } finally {
        await fresh.close();
      }
    } finally {
      await db.close();
    }
    // A database built from scratch by 34 migrations and upgraded: slow on a busy machine.
  }, 300_000);

  it('still counts as known to a restore (a backup made before the squash lists them)', async () => {
    const old = (await readdir(oldMigrations)).map((file) => file.split('_')[0]!);
    const since = (await migrationsSinceSquash()).map((file) => file.split('_')[0]!);
    expect(await knownMigrationVersions(migrationsDir)).toEqual([...old, ...since].sort());
  });

  it('is refused, saying what to do, when it stops short of the squashed version', async () => {
    const partial = path.join(workDir, 'partial-migrations');
    await cp(oldMigrations, partial, {
      recursive: true,
      filter: (source) => !/20261127001(200|201)_/.test(path.basename(source)),
    });
    const db = await emptyDatabase();
    try {
      await migrate(db, partial, options);
      await expect(migrate(db, migrationsDir, options)).rejects.toThrow(
        'This database was made by an older Steward: it has migrations up to 20261127001101, ' +
          'but not 20261127001200_document_counts, 20261127001201_search_count_limit, which ' +
          '20261127001201_baseline.sql replaces.',
      );
      // Brought up to date by the migrations it missed, it takes the new ones.
      await migrate(db, oldMigrations, options);
      expect(await migrate(db, migrationsDir, options)).toEqual({
        platform: [],
        migrations: await migrationsSinceSquash(),
      });
    } finally {
      await db.close();
    }
  }, 300_000);
});
