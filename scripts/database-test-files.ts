import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Which backend test files the PostgreSQL pass of `npm test` runs: those whose imports reach
 * tests/support/template.ts (where test servers and databases read TEST_DATABASE_URL), or that
 * read the variable themselves. The others (units of pure code, the bundle budget, the type
 * generator on its own PGlite) run the very same code on both passes; the PGlite pass has them.
 */
const DATABASE_SUPPORT = path.join('tests', 'support', 'template.ts');
/**
 * Files that start test servers, but whose subject is the same on either database, so that the
 * PostgreSQL pass would run them exactly as the PGlite pass does: the rows they write are
 * written as in other files that both passes run. Each is named here with why.
 */
export const EMBEDDED_DATABASE_ONLY: Record<string, string> = {
  // A preview's memory cap (a background process killed) and the turns of the CPU pool's
  // renders by organisation: 49-53 s of the PostgreSQL pass's longest files for no statement of
  // their own (office-previews.test.ts signs and reads previews on both passes).
  'tests/backend/office-preview-limits.test.ts': 'the renderers’ process and turns',
  // The consistency check refusing to open a PGlite data directory (its servers are PGlite on
  // both passes).
  'tests/backend/consistency-embedded.test.ts': 'an embedded database only',
};
const READS_VARIABLE = /process\.env\.TEST_DATABASE_URL\b/;
// `from '…'`, `import '…'` and `import('…')` of a path relative to the file.
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * The backend project's test files, as vitest finds them (absolute paths). Asynchronous, so that
 * `npm test` lists them while its first pass runs rather than before it (3-7 s of wall).
 */
export async function backendTestFiles(rootDir: string): Promise<string[]> {
  const listed = await promisify(execFile)(
    'npx',
    ['vitest', 'list', '--project', 'backend', '--filesOnly', '--json'],
    { cwd: rootDir, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: Error & { stderr?: string }) => {
    throw new Error(`vitest list failed: ${error.stderr ?? error.message}`);
  });
  return (JSON.parse(listed.stdout) as { file: string }[]).map((entry) => entry.file);
}

/** What a file says about the database: that it reads the variable, or which files it imports. */
type Reading = { readsVariable: boolean; imports: string[] };

function read(file: string): Reading {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return { readsVariable: false, imports: [] }; // not a file of ours
  }
  const imports = [...source.matchAll(RELATIVE_IMPORT)]
    .map((match) => path.resolve(path.dirname(file), match[1]!))
    .filter((target) => !target.includes(`${path.sep}node_modules${path.sep}`));
  return { readsVariable: READS_VARIABLE.test(source), imports };
}

/** Whether `file` reaches the test database support, following relative imports. */
export function reachesTestDatabase(
  file: string,
  rootDir: string,
  readings = new Map<string, Reading>(),
): boolean {
  const support = path.join(rootDir, DATABASE_SUPPORT);
  const seen = new Set<string>();
  const pending = [file];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next === support) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    let reading = readings.get(next);
    if (!reading) readings.set(next, (reading = read(next)));
    if (reading.readsVariable) return true;
    pending.push(...reading.imports);
  }
  return false;
}

/** The backend test files that use the database a run names. */
export async function databaseTestFiles(rootDir: string): Promise<string[]> {
  const readings = new Map<string, Reading>();
  return (await backendTestFiles(rootDir)).filter(
    (file) =>
      !(path.relative(rootDir, file).split(path.sep).join('/') in EMBEDDED_DATABASE_ONLY) &&
      reachesTestDatabase(file, rootDir, readings),
  );
}
