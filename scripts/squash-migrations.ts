import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { create } from 'tar';
import { migrate, migrationFiles } from '../server/db/migrate.ts';
import { openPglite } from '../server/db/pglite.ts';
import { compareCatalogues, readCatalogue } from './schema/catalogue.ts';

// `npx tsx scripts/squash-migrations.ts`: replaces every file of supabase/migrations with one
// baseline, as `supabase migration squash` does, made from supabase/schemas/ (the living
// definition of every object). The baseline keeps the version of the newest migration, so a
// database that has it recorded (every installation and hosted project at that version) skips
// it, and a new database applies it instead of the whole history.
//
// Before writing anything it builds a database from the migrations and one from the schema
// files and refuses when their catalogues differ. The replaced files are kept, compressed, as
// tests/fixtures/migrations-<version>.tar.gz for the upgrade test, and listed in the
// baseline's header (`-- squashed:`), which is how the migrator and the restore know them.

const root = path.resolve(import.meta.dirname, '..');
const migrationsDir = path.join(root, 'supabase', 'migrations');
const schemasDir = path.join(root, 'supabase', 'schemas');
const fixturesDir = path.join(root, 'tests', 'fixtures');

async function catalogueOf(dir: string) {
  const db = await openPglite();
  try {
    await migrate(db, dir);
    return await readCatalogue(db);
  } finally {
    await db.close();
  }
}

const migrations = await migrationFiles(migrationsDir);
const last = migrations.at(-1);
if (!last || migrations.length < 2) {
  console.error('Nothing to squash: supabase/migrations has fewer than two files.');
  process.exit(1);
}

const differences = compareCatalogues(
  await catalogueOf(migrationsDir),
  await catalogueOf(schemasDir),
  ['supabase/migrations', 'supabase/schemas'],
);
if (differences.length > 0) {
  console.error('supabase/schemas does not describe what supabase/migrations makes:');
  for (const difference of differences) console.error(`  ${difference}`);
  process.exit(1);
}

const replaced = migrations.flatMap((m) => [...m.squashed, `${m.version}_${m.name}`]);
const schemaFiles = (await readdir(schemasDir)).filter((file) => file.endsWith('.sql')).sort();
const parts = [
  `-- The schema of Steward at migration ${last.version}, made by scripts/squash-migrations.ts`,
  '-- from supabase/schemas/ (each file follows, in order). Generated: do not edit. A change to',
  '-- the schema is made in its supabase/schemas/ file and in a new migration after this one',
  '-- (docs/data-model.md). A database that has any of the migrations below recorded already',
  '-- holds what this makes; one that has this version recorded skips it.',
  '--',
  ...replaced.map((name) => `-- squashed: ${name}`),
  '',
];
for (const file of schemaFiles) {
  const sql = await readFile(path.join(schemasDir, file), 'utf8');
  parts.push(`-- ${'='.repeat(92)}`, `-- supabase/schemas/${file}`, `-- ${'='.repeat(92)}`, '');
  parts.push(sql.trimEnd(), '');
}

await mkdir(fixturesDir, { recursive: true });
const fixture = path.join(fixturesDir, `migrations-${last.version}.tar.gz`);
await create(
  { gzip: true, file: fixture, cwd: migrationsDir, portable: true, mtime: new Date(0) },
  migrations.map((m) => m.file),
);
for (const m of migrations) await rm(path.join(migrationsDir, m.file));
const baseline = path.join(migrationsDir, `${last.version}_baseline.sql`);
await writeFile(baseline, parts.join('\n'));

const hostedVersions = replaced.map((name) => name.split('_')[0]).filter((v) => v !== last.version);
console.log(`Squashed ${migrations.length} migrations into ${path.relative(root, baseline)};`);
console.log(`the replaced files are in ${path.relative(root, fixture)}.`);
console.log('A hosted project deployed with them forgets them before its next `supabase db push`:');
console.log(`  supabase migration repair --status reverted ${hostedVersions.join(' ')}`);
