import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const rootDir = path.resolve(import.meta.dirname, '..');
const inputs = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
];

async function newestMtime(target: string): Promise<number> {
  const info = await stat(target).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(target)) {
    if (entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
    newest = Math.max(newest, await newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Builds the SPA into dist/ when it is missing or older than its sources. */
export async function buildIfStale(): Promise<boolean> {
  // DIST_DIR lets several checkouts or test runs build side by side without clobbering dist/.
  const outDir = path.resolve(process.env.DIST_DIR ?? path.join(rootDir, 'dist'));
  const built = (await stat(path.join(outDir, 'index.html')).catch(() => null))?.mtimeMs ?? 0;
  let newestInput = 0;
  for (const input of inputs)
    newestInput = Math.max(newestInput, await newestMtime(path.join(rootDir, input)));
  if (built >= newestInput) return false;
  console.log(built ? 'Sources changed: rebuilding the app…' : 'Building the app (first start)…');
  const { build } = await import('vite');
  await build({ root: rootDir, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return true;
}
