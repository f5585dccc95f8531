import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { rootDir } from './template.ts';

/**
 * A script of scripts/ bundled into one JavaScript file, for tests that run it as a command
 * many times: `node <file>` then runs the script's own code without registering tsx in every
 * new process, which compiled and resolved it anew each time (about 1 s of CPU a run under
 * load, most of a check of a small store). Packages stay imports of node_modules.
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
    packages: 'external',
    logLevel: 'error',
  });
  // A module that finds files beside itself (a worker's entry, migrate.ts's platform SQL) would
  // look in `.tmp/` instead: such a script cannot be bundled this way.
  const code = await readFile(file, 'utf8');
  const misplaced = code
    .replace(/\.(resolve|join)\(import\.meta\.dirname, "\.\."/g, '')
    .match(/import\.meta\.\w+/);
  if (misplaced) {
    await rm(file, { force: true });
    throw new Error(`${script}: a bundled module uses ${misplaced[0]} for its own place`);
  }
  return { file, remove: () => rm(file, { force: true }) };
}
