/**
 * Lighthouse-style lab figures for the dashboard (`/`) and the documents page (`/documents`),
 * signed in, in headless Chromium, against `tsx server/index.ts` (PGlite) serving the built
 * SPA, for an organisation with 1,000 documents: first contentful paint, largest contentful
 * paint, total blocking time (long tasks between FCP and the last long task before a quiet
 * window) and the JavaScript transferred. Each load is cold (a new browser context: empty
 * cache), desktop viewport, no CPU or network throttling; median of `loads` after a warm-up.
 *
 * Absolute times drift on a shared machine, so each page is also given as a ratio to a bare
 * HTML page served by the same server (one paragraph, no script), and /documents to /.
 *
 * `npx tsx bench/page-performance.bench.ts` runs it alone; `run()` is what bench/run.ts calls.
 * Chromium from CHROMIUM_PATH (default /usr/bin/chromium).
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Session } from '@supabase/supabase-js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DOCUMENT_CATEGORIES } from '../src/config/document-categories.ts';
import { nodeClient } from './support/load-world.ts';
import { collectPageLoad, INSTALL_PAGE_METRICS, type PageLoad } from './support/page-metrics.ts';
import { startSteward, type StewardProcess } from './support/steward-process.ts';

export interface PagePerformanceOptions {
  documents?: number;
  loads?: number;
}

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const EMPTY_PAGE = 'bench-empty.html';
const EMPTY_HTML = `<!doctype html>
<html lang="en"><head><meta charset="UTF-8"><title>Empty</title></head>
<body><p>An empty page: the floor for paint times on this machine.</p></body></html>
`;

interface PageSpec {
  label: string;
  path: string;
  /** Waits until the page shows what a person came for. */
  ready(page: Page, documents: number): Promise<void>;
}

const PAGES: PageSpec[] = [
  { label: 'empty page', path: `/${EMPTY_PAGE}`, ready: async () => {} },
  {
    label: '/ (dashboard)',
    path: '/',
    ready: (page) => page.getByTestId('dashboard-stats').waitFor({ timeout: 60_000 }),
  },
  {
    label: '/documents',
    path: '/documents',
    ready: (page, documents) =>
      page
        .getByRole('status')
        .filter({ hasText: new RegExp(`^${documents.toLocaleString('en-US')} documents$`) })
        .waitFor({ timeout: 60_000 }),
  },
];

/** A built SPA in a directory of our own, with the empty page beside it. */
async function prepareDist(work: string): Promise<string> {
  const distDir = path.join(work, 'dist');
  if (process.env.DIST_DIR) {
    await cp(process.env.DIST_DIR, distDir, { recursive: true });
  } else {
    const previous = process.env.DIST_DIR;
    process.env.DIST_DIR = distDir;
    try {
      const { buildIfStale } = await import('../scripts/build-if-stale.ts');
      await buildIfStale();
    } finally {
      if (previous === undefined) delete process.env.DIST_DIR;
    }
  }
  // Dated ahead so no start rebuilds it while the sources change under other engineers' hands.
  const future = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  await utimes(path.join(distDir, 'index.html'), future, future);
  await writeFile(path.join(distDir, EMPTY_PAGE), EMPTY_HTML);
  return distDir;
}

/** A master admin with an organisation of `count` documents (rows; pages never read files). */
async function seed(server: StewardProcess, count: number): Promise<Session> {
  const member = nodeClient(server.url, server.keys.anonKey);
  const email = `pages-${randomBytes(4).toString('hex')}@example.test`;
  const password = 'correct horse battery staple';
  const signUp = await member.auth.signUp({ email, password });
  if (signUp.error) throw signUp.error;
  const created = await member.rpc('create_organization', { name: 'Page Performance Church' });
  if (created.error) throw new Error(created.error.message);
  const organizationId = (created.data as { id: string }).id;
  const service = nodeClient(server.url, server.keys.serviceRoleKey);
  const start = Date.parse('2025-01-01T00:00:00Z');
  for (let from = 0; from < count; from += 500) {
    const rows = Array.from({ length: Math.min(500, count - from) }, (_, offset) => {
      const i = from + offset;
      return {
        organization_id: organizationId,
        name: `Document ${i}.pdf`,
        category: DOCUMENT_CATEGORIES[i % DOCUMENT_CATEGORIES.length]!,
        size: 2048 + ((i * 7919) % 3_000_000),
        tags: i % 2 ? ['minutes', `year-${2020 + (i % 6)}`] : ['policy'],
        expiry_date:
          i % 3 === 0
            ? new Date(Date.now() + ((i % 120) - 30) * 86_400_000).toISOString().slice(0, 10)
            : null,
        file_path: `documents/${organizationId}/${start + i}-page${i}.pdf`,
        created_at: new Date(start + i * 60_000).toISOString(),
        upload_date: new Date(start + i * 60_000).toISOString(),
      };
    });
    const { error } = await service.from('documents').insert(rows);
    if (error) throw new Error(`seeding failed: ${error.message}`);
  }
  const signIn = await nodeClient(server.url, server.keys.anonKey).auth.signInWithPassword({
    email,
    password,
  });
  if (signIn.error || !signIn.data.session) throw signIn.error ?? new Error('no session');
  return signIn.data.session;
}

/** One cold load: a new context (empty cache) with the session already stored. */
async function loadOnce(
  browser: Browser,
  server: StewardProcess,
  session: Session,
  spec: PageSpec,
  documents: number,
): Promise<PageLoad> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1350, height: 940 },
  });
  try {
    const storageKey = `sb-${new URL(server.url).hostname.split('.')[0]}-auth-token`;
    await context.addInitScript(
      ([key, value]) => window.localStorage.setItem(key!, value!),
      [storageKey, JSON.stringify(session)],
    );
    await context.addInitScript({ content: INSTALL_PAGE_METRICS });
    const page = await context.newPage();
    await page.goto(spec.path);
    await spec.ready(page, documents);
    return await collectPageLoad(page);
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

interface PageFigures {
  label: string;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  ttiMs: number;
  longTasks: number;
  jsTransferBytes: number;
  jsGzipBytes: number;
  lcpElement: string | null;
  loads: PageLoad[];
}

async function gzipSizeOf(distDir: string, files: string[]): Promise<number> {
  let total = 0;
  for (const file of new Set(files)) {
    total += gzipSync(await readFile(path.join(distDir, file)), { level: 9 }).length;
  }
  return total;
}

export async function run(options: PagePerformanceOptions = {}) {
  const documents = options.documents ?? 1000;
  const loads = options.loads ?? 5;
  const work = await mkdtemp(path.join(os.tmpdir(), 'steward-bench-pages-'));
  let server: StewardProcess | undefined;
  let browser: Browser | undefined;
  try {
    const distDir = await prepareDist(work);
    server = await startSteward({
      dataDir: path.join(work, 'data'),
      jwtSecret: randomBytes(32).toString('base64url'),
      env: { DIST_DIR: distDir },
    });
    const session = await seed(server, documents);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });

    const figures: PageFigures[] = [];
    for (const spec of PAGES) {
      await loadOnce(browser, server, session, spec, documents); // warm-up: server and disk caches
      const measured: PageLoad[] = [];
      for (let i = 0; i < loads; i++) {
        measured.push(await loadOnce(browser, server, session, spec, documents));
      }
      const pick = (key: 'fcpMs' | 'lcpMs' | 'tbtMs' | 'ttiMs' | 'longTasks' | 'jsTransferBytes') =>
        median(measured.map((load) => load[key]));
      figures.push({
        label: spec.label,
        fcpMs: pick('fcpMs'),
        lcpMs: pick('lcpMs'),
        tbtMs: pick('tbtMs'),
        ttiMs: pick('ttiMs'),
        longTasks: pick('longTasks'),
        jsTransferBytes: pick('jsTransferBytes'),
        jsGzipBytes: await gzipSizeOf(distDir, measured[0]!.jsFiles),
        lcpElement: measured.at(-1)!.lcpElement,
        loads: measured,
      });
    }

    const [empty, dashboard, documentsPage] = figures as [PageFigures, PageFigures, PageFigures];
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const ms = (value: number) => `${value.toFixed(0)} ms`;
    const lines = [
      `page-performance: headless Chromium, cold loads (empty cache), 1350×940, no throttling, signed in, ${documents.toLocaleString('en-US')} documents; median of ${loads} after a warm-up`,
      `  ${'page'.padEnd(15)} ${'FCP'.padStart(7)} ${'LCP'.padStart(7)} ${'TBT'.padStart(7)} ${'TTI~'.padStart(7)} ${'long tasks'.padStart(10)} ${'JS transferred'.padStart(15)} ${'(gzip)'.padStart(9)}`,
      ...figures.map(
        (f) =>
          `  ${f.label.padEnd(15)} ${ms(f.fcpMs).padStart(7)} ${ms(f.lcpMs).padStart(7)} ${ms(f.tbtMs).padStart(7)} ${ms(f.ttiMs).padStart(7)} ${String(f.longTasks).padStart(10)} ${kb(f.jsTransferBytes).padStart(15)} ${kb(f.jsGzipBytes).padStart(9)}`,
      ),
      `  LCP element: / ${dashboard.lcpElement ?? '?'}; /documents ${documentsPage.lcpElement ?? '?'}`,
      `  ratios to the empty page (LCP): / ${(dashboard.lcpMs / empty.lcpMs).toFixed(2)}×, /documents ${(documentsPage.lcpMs / empty.lcpMs).toFixed(2)}×`,
      `  /documents ÷ /: FCP ${(documentsPage.fcpMs / dashboard.fcpMs).toFixed(2)}×, LCP ${(documentsPage.lcpMs / dashboard.lcpMs).toFixed(2)}×, JS ${(documentsPage.jsTransferBytes / dashboard.jsTransferBytes).toFixed(2)}×`,
      `  "JS transferred" is what the browser received (the embedded server sends brotli or gzip); "(gzip)" is what the same files weigh gzipped (-9), the measure of the 150 KB budget`,
    ];
    return {
      name: 'page-performance',
      documents,
      pages: figures.map(({ loads: _loads, ...rest }) => rest),
      lines,
    };
  } finally {
    await browser?.close();
    await server?.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(result.lines.join('\n'));
}
