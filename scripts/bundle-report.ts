import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One entry of Vite's build manifest (`dist/.vite/manifest.json`). */
interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface ChunkSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface BundleReport {
  /** The entry chunk (index.html's script) alone. */
  entry: ChunkSize;
  /** Every JavaScript chunk a signed-in user downloads to see the dashboard. */
  dashboard: ChunkSize[];
  dashboardGzipTotal: number;
  /** Every JavaScript chunk of the build. */
  all: ChunkSize[];
}

/** Modules that load, one after another, before the dashboard shows (see src/main.tsx, router.tsx). */
const DASHBOARD_MODULES = [
  'index.html',
  'src/app/app.tsx',
  'src/app/shell.tsx',
  'src/app/routes/dashboard-page.tsx',
];

async function sizeOf(distDir: string, file: string): Promise<ChunkSize> {
  const bytes = await readFile(path.join(distDir, file));
  return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}

/** Static imports are fetched with a chunk; collect them transitively. */
function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The build manifest has no chunk for ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

/** Sizes of the built SPA in `distDir` (built with `build.manifest: true`). */
export async function bundleReport(distDir: string): Promise<BundleReport> {
  const manifest = JSON.parse(
    await readFile(path.join(distDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('The build manifest has no entry chunk');
  const dashboardKeys = staticClosure(manifest, DASHBOARD_MODULES);
  const dashboard = await Promise.all(
    [...dashboardKeys].map((key) => sizeOf(distDir, manifest[key]!.file)),
  );
  const allFiles = [...new Set(Object.values(manifest).map((chunk) => chunk.file))].filter((file) =>
    file.endsWith('.js'),
  );
  return {
    entry: await sizeOf(distDir, manifest[entryKey]!.file),
    dashboard: dashboard.sort((a, b) => b.gzipBytes - a.gzipBytes),
    dashboardGzipTotal: dashboard.reduce((sum, chunk) => sum + chunk.gzipBytes, 0),
    all: (await Promise.all(allFiles.map((file) => sizeOf(distDir, file)))).sort(
      (a, b) => b.gzipBytes - a.gzipBytes,
    ),
  };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Prints the report as a table: `npx tsx scripts/bundle-report.ts [distDir]`. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const distDir = path.resolve(process.argv[2] ?? 'dist');
  const report = await bundleReport(distDir);
  console.log(`Dashboard for a signed-in user: ${kb(report.dashboardGzipTotal)} gzip`);
  for (const chunk of report.dashboard) console.log(`  ${chunk.file}  ${kb(chunk.gzipBytes)} gzip`);
  console.log('All chunks:');
  for (const chunk of report.all)
    console.log(`  ${chunk.file}  ${kb(chunk.bytes)}  ${kb(chunk.gzipBytes)} gzip`);
}
