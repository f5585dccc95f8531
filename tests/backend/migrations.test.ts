import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { freshPostgresDatabase, migrationsDir, postgresAdminUrl } from '../support/template.ts';

describe('migrations', () => {
  it('apply from empty, and a second run applies nothing', async () => {
    const adminUrl = postgresAdminUrl();
    const empty = adminUrl ? await freshPostgresDatabase(adminUrl, { empty: true }) : null;
    const db = empty ? await openPostgres(empty.url) : await openPglite();
    try {
      const migrationFiles = readdirSync(migrationsDir)
        .filter((f) => f.endsWith('.sql'))
        .sort();
      const first = await migrate(db, migrationsDir);
      expect(first.platform).toEqual([
        '001-roles.sql',
        '002-auth.sql',
        '003-storage.sql',
        '004-storage-upload-tokens.sql',
        '005-rest.sql',
        '006-hosted-postgres.sql',
        '007-storage-protect-delete.sql',
        '008-rest-planned-count.sql',
        '009-auth-one-time-tokens.sql',
        '010-auth-mfa.sql',
        '011-auth-secure-changes.sql',
        '012-rest-filtered-text.sql',
        '013-request-allowances.sql',
      ]);
      expect(first.migrations).toEqual(migrationFiles);

      const second = await migrate(db, migrationsDir);
      expect(second).toEqual({ platform: [], migrations: [] });
      const { rows } = await db
        .serverWork()
        .query<{ n: number }>(
          'select count(*)::int as n from supabase_migrations.schema_migrations',
        );
      expect(rows[0]?.n).toBe(migrationFiles.length);
    } finally {
      await db.close();
      await empty?.drop();
    }
    // A new embedded database runs initdb first: slow on a busy machine.
  }, 120_000);
});
