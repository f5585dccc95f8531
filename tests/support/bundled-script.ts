import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { rootDir } from './template.ts';

/**
 * Packages left as imports of node_modules: PGlite reads its WebAssembly and data files beside
 * its modules, Piscina starts its worker from its own file, and `pg-native` is an optional
 * package that is not installed (pg asks for it only when told to).
 */
const BESIDE_THEMSELVES = ['@electric-sql/pglite', 'piscina', 'pg-native'];

/**
 * The bundled packages' own `require` calls that esbuild leaves to run time (Node's built-in
 * modules, a package's optional ones inside `try`): an ES module has no `require`, so the file
 * makes one, resolving from `.tmp/` as from the checkout.
 */
const REQUIRE_BANNER =
  "import { createRequire as __bundledScriptRequire } from 'node:module';\n" +
  'const require = __bundledScriptRequire(import.meta.url);';

/**
 * A script of scripts/ bundled into one JavaScript file, for tests that run it as a command
 * many times: `node <file>` then runs the script's own code without registering tsx in every
 * new process, which compiled and resolved it anew each time (about 1 s of CPU a run under
 * load, most of a check of a small store). The packages it imports are bundled too, but for
 * those that find files beside their own (`BESIDE_THEMSELVES`): resolving and loading them from
 * node_modules in every run (the S3 client's hundreds of modules, each CommonJS one scanned for
 * its exports) cost 0.40 s of CPU a start against 0.22 s bundled.
 *
 * The file is written to `.tmp/`, one level below the checkout as `scripts/` and `server/` are:
 * the bundled modules that find the checkout from their own place
 * (`path.resolve(import.meta.dirname, '..')`) find the same directory from there; any other use
 * of `import.meta` is refused.
 */
export async function bundledScript(
  script: string,
): Promise<{ file: string; remove: () => Promise<void> }> {
  const dir = path.join(rootDir, '.tmp');
  await mkdir(dir, { recursive: true });
  const name = path.basename(script, path.extname(script));
  // Unique: the PGlite and PostgreSQL passes, or two runs, may bundle at the same time.
  const file = path.join(dir, `${name}.${process.pid}.${randomBytes(4).toString('hex')}.mjs`);
  await build({
    entryPoints: [path.join(rootDir, script)],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: BESIDE_THEMSELVES,
    banner: { js: REQUIRE_BANNER },
    logLevel: 'error',
  });
  // A module that finds files beside itself (a worker's entry, migrate.ts's platform SQL) would
  // look in `.tmp/` instead: such a script cannot be bundled this way.
  // So would a bundled package's CommonJS module that uses `__dirname` or `__filename` (undefined
  // in an ES module).
  const code = (await readFile(file, 'utf8')).replace(REQUIRE_BANNER, '');
  const misplaced = code
    .replace(/\.(resolve|join)\(import\.meta\.dirname, "\.\."/g, '')
    .match(/import\.meta\.\w+|\b__dirname\b|\b__filename\b/);
  if (misplaced) {
    await rm(file, { force: true });
    throw new Error(`${script}: a bundled module uses ${misplaced[0]} for its own place`);
  }
  return { file, remove: () => rm(file, { force: true }) };
}
