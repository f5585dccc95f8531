import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backendTestFiles,
  databaseTestFiles,
  EMBEDDED_DATABASE_ONLY,
  reachesTestDatabase,
} from '../../scripts/database-test-files.ts';
import { scratchDir } from '../support/scratch.ts';

const rootDir = path.resolve(import.meta.dirname, '../..');

// `npm test` runs on PostgreSQL only the backend files that use the database the run names
// (scripts/database-test-files.ts); the others run the same code on the PGlite pass.
describe('the PostgreSQL pass of npm test', () => {
  let dir: string;
  const file = (name: string) => path.join(dir, name);

  beforeAll(async () => {
    dir = await scratchDir('steward-database-files-');
    await mkdir(file('tests/support'), { recursive: true });
    await mkdir(file('tests/backend'), { recursive: true });
    // Written through `imports`, so that this file itself neither imports nor reads them.
    const imports = (...targets: string[]) => targets.map((t) => `import '${t}';`).join('\n');
    const sources: Record<string, string> = {
      'tests/support/template.ts': 'export const url = 1;',
      'tests/support/server.ts': imports('./template.ts'),
      'tests/backend/server.test.ts': imports('../support/server.ts'),
      'tests/backend/helper.ts': imports('../support/server.ts').replace('import', 'export * from'),
      'tests/backend/through-helper.test.ts': `const h = await import('${'./helper.ts'}');`,
      'tests/backend/unit.test.ts': imports('./a.ts', 'pg'),
      // A cycle that never reaches the database, and one whose other import does.
      'tests/backend/a.ts': imports('./b.ts'),
      'tests/backend/b.ts': imports('./a.ts'),
      'tests/backend/c.ts': imports('./d.ts'),
      'tests/backend/d.ts': imports('./c.ts', './helper.ts'),
      'tests/backend/cycle.test.ts': imports('./c.ts'),
      'tests/backend/variable.test.ts': `const url = process.env.${'TEST_DATABASE_URL'};`,
    };
    for (const [name, source] of Object.entries(sources)) await writeFile(file(name), source);
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('runs the files that reach tests/support/template.ts or read TEST_DATABASE_URL', () => {
    const reaches = (name: string) => reachesTestDatabase(file(name), dir);
    expect(reaches('tests/backend/server.test.ts')).toBe(true);
    expect(reaches('tests/backend/through-helper.test.ts')).toBe(true);
    expect(reaches('tests/backend/cycle.test.ts')).toBe(true);
    expect(reaches('tests/backend/variable.test.ts')).toBe(true);
    expect(reaches('tests/backend/unit.test.ts')).toBe(false);
  });

  it('keeps every file of this checkout that starts a test server, and leaves out pure units', async () => {
    const all = await backendTestFiles(rootDir);
    const chosen = await databaseTestFiles(rootDir);
    const name = (f: string) => path.relative(rootDir, f);
    expect(all.length).toBeGreaterThan(50);
    expect(chosen.map(name)).toEqual(
      expect.arrayContaining([
        'tests/security/matrix-tables.test.ts',
        'tests/backend/rest-read.test.ts',
        'tests/backend/auth-rate-limit.test.ts',
      ]),
    );
    expect(chosen.map(name)).not.toContain('tests/backend/fair-queue.test.ts');
    expect(chosen.map(name)).not.toContain('tests/backend/database-test-files.test.ts');
  });

  it('leaves out the files named as the same on either database, which the PGlite pass runs', async () => {
    const all = (await backendTestFiles(rootDir)).map((f) => path.relative(rootDir, f));
    const chosen = (await databaseTestFiles(rootDir)).map((f) => path.relative(rootDir, f));
    const named = Object.keys(EMBEDDED_DATABASE_ONLY);
    expect(named.length).toBeGreaterThan(0);
    for (const file of named) {
      // Each is a test file of the backend project (a name that matches none would run twice),
      // that starts servers, yet is not run on PostgreSQL.
      expect(all).toContain(file);
      expect(reachesTestDatabase(path.join(rootDir, file), rootDir)).toBe(true);
      expect(chosen).not.toContain(file);
    }
  });
});
