import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresAdminUrl, rootDir, schemaHash } from '../support/template.ts';

describe("npm test's set-ups for its later passes (scripts/test-prepare.ts)", () => {
  // Without `--app`: the SPA's build is `npm start`'s own `buildIfStale`, and a Vite build here
  // would cost the pass the CPU that bundle-budget.test.ts already spends on one.
  it('builds the PGlite platform template and, with TEST_DATABASE_URL, the PostgreSQL templates under the names the passes look for', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/test-prepare.ts'],
      { cwd: rootDir, env: process.env, encoding: 'utf8' },
    );
    expect(stdout).toMatch(/^PGlite platform template: [\d.]+ s/m);
    expect(stdout).not.toMatch(/SPA build/);
    const adminUrl = postgresAdminUrl();
    if (!adminUrl) {
      expect(stdout).not.toMatch(/PostgreSQL templates/);
      return;
    }
    expect(stdout).toMatch(/^PostgreSQL templates: [\d.]+ s/m);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const names = [
        `steward_tpl_platform_${await schemaHash('platform')}`,
        `steward_tpl_app_${await schemaHash('app')}`,
      ];
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where datname = any($1) order by datname',
        [names],
      );
      expect(rows.map((row) => row.datname)).toEqual([...names].sort());
    } finally {
      await admin.end();
    }
  }, 60_000);
});
