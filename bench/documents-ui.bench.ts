/**
 * How the documents page and the dashboard behave at the size of a real organisation, in
 * headless Chromium against the embedded backend:
 *   - time from navigation to the first table row (/documents) and to the counters (/), for an
 *     organisation with 100 and one with 100,000 documents (the list is one page from the
 *     server). Target: the 100,000 case within 1.5× the 100 case;
 *   - time from the last keystroke of a search to the frame that shows its results (the search
 *     runs on the server once typing pauses, 300 ms, which is included), for both sizes.
 *     Target: within 1.5× as well.
 * Documents are seeded with service-role bulk inserts through the REST API (rows only: listing
 * and counting never touch the stored bytes).
 *
 * `npx tsx bench/documents-ui.bench.ts` runs it alone; `run()` is what bench/run.ts calls.
 * Chromium from CHROMIUM_PATH (default /usr/bin/chromium).
 */
import { createClient, type Session } from '@supabase/supabase-js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import WebSocket from 'ws';
import { DOCUMENT_CATEGORIES } from '../src/config/document-categories.ts';
import type { Database } from '../src/lib/database.types.ts';
import { startTestServer, type TestServer } from '../tests/support/server.ts';

export interface DocumentsUiOptions {
  sizes?: number[];
  /** Measured page loads per size and page (after one warm-up load). */
  loads?: number;
  /** The text typed into the search box, one key at a time, then erased again. */
  searchText?: string;
  /** Searches measured per size. */
  searches?: number;
}

export interface LoadTimes {
  documents: number;
  firstRowMs: number;
  countersMs: number;
}

export interface DocumentsUiResult {
  name: string;
  loads: LoadTimes[];
  /** Largest ÷ smallest organisation's time; target ≤ 1.5. */
  ratios: { firstRow: number; counters: number; search: number };
  /** Last keystroke → results shown, median per size. */
  searchMs: number[];
  targets: { ratio: number };
  pass: boolean;
  lines: string[];
}

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const NAMES = [
  'Board minutes',
  'Insurance policy',
  'Youth camp budget',
  'Payroll report',
  'Volunteer schedule',
  'Building lease',
  'Sermon notes',
];

type Client = ReturnType<typeof createClient<Database>>;

function client(server: TestServer, key: string): Client {
  return createClient<Database>(server.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

/** A member with an organisation of `count` documents; returns their session. */
async function seedOrganization(server: TestServer, count: number): Promise<Session> {
  const member = client(server, server.keys.anonKey);
  const email = `bench-${count}-${Date.now().toString(36)}@example.test`;
  const signUp = await member.auth.signUp({ email, password: 'correct horse battery staple' });
  if (signUp.error || !signUp.data.session) throw signUp.error ?? new Error('no session');
  const created = await member.rpc('create_organization', { name: `Bench Church ${count}` });
  if (created.error) throw new Error(created.error.message);
  const organizationId = (created.data as unknown as { id: string }).id;

  const service = client(server, server.keys.serviceRoleKey);
  const start = Date.parse('2024-01-01T00:00:00Z');
  for (let from = 0; from < count; from += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - from) }, (_, offset) => {
      const i = from + offset;
      const withExpiry = i % 3 === 0;
      return {
        organization_id: organizationId,
        name: `${NAMES[i % NAMES.length]} ${i}.pdf`,
        category: DOCUMENT_CATEGORIES[i % DOCUMENT_CATEGORIES.length]!,
        size: 1024 + ((i * 7919) % 5_000_000),
        tags: i % 2 ? ['bench', `batch-${Math.floor(i / 1000)}`, 'archive', 'extra'] : ['bench'],
        expiry_date: withExpiry
          ? new Date(Date.now() + ((i % 120) - 30) * 86_400_000).toISOString().slice(0, 10)
          : null,
        file_path: `documents/${organizationId}/${start + i}-bench${i}.pdf`,
        created_at: new Date(start + i * 60_000).toISOString(),
        upload_date: new Date(start + i * 60_000).toISOString(),
      };
    });
    const { error } = await service.from('documents').insert(rows);
    if (error) throw new Error(`seeding failed: ${error.message}`);
  }
  const signIn = await client(server, server.keys.anonKey).auth.signInWithPassword({
    email,
    password: 'correct horse battery staple',
  });
  if (signIn.error || !signIn.data.session) throw signIn.error ?? new Error('no session');
  return signIn.data.session;
}

/**
 * Records, from inside the page, when the first table row and the counters appear, and when the
 * last key went down. A string, not a function: tsx compiles functions with name helpers that do
 * not exist in the page.
 */
const INSTALL_MARKS = `
  (() => {
    const marks = {};
    window.__marks = marks;
    const check = () => {
      if (!marks.firstRow && document.querySelector('tbody tr[aria-rowindex]')) {
        marks.firstRow = performance.now();
      }
      if (!marks.counters && document.querySelector('[data-testid="dashboard-stats"]')) {
        marks.counters = performance.now();
      }
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
    document.addEventListener('keydown', (event) => { window.__keydown = event.timeStamp; }, true);
  })();
`;

async function timeTo(page: Page, url: string, mark: 'firstRow' | 'counters'): Promise<number> {
  await page.goto(url);
  const handle = await page
    .waitForFunction(
      (name) => (window as unknown as { __marks?: Record<string, number> }).__marks?.[name],
      mark,
      { timeout: 60_000 },
    )
    .catch(async (error: unknown) => {
      const shot = path.join(os.tmpdir(), `documents-ui-${mark}.png`);
      await page.screenshot({ path: shot }).catch(() => {});
      throw new Error(`${mark} never appeared on ${url} (screenshot: ${shot})`, { cause: error });
    });
  return (await handle.jsonValue()) as number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function newPage(browser: Browser, server: TestServer, session: Session): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 900 },
  });
  const storageKey = `sb-${new URL(server.url).hostname.split('.')[0]}-auth-token`;
  await context.addInitScript(
    ([key, value]) => {
      if (!window.localStorage.getItem(key!)) window.localStorage.setItem(key!, value!);
    },
    [storageKey, JSON.stringify(session)],
  );
  await context.addInitScript({ content: INSTALL_MARKS });
  return context.newPage();
}

/** Waits until the documents page shows its first page and the total. */
async function listComplete(page: Page, total: number): Promise<void> {
  await page
    .getByRole('status')
    .filter({ hasText: new RegExp(` of ${total.toLocaleString('en-US')} documents$`) })
    .waitFor({ timeout: 120_000 });
}

async function measureLoads(
  browser: Browser,
  server: TestServer,
  session: Session,
  documents: number,
  loads: number,
): Promise<LoadTimes> {
  const page = await newPage(browser, server, session);
  const firstRow: number[] = [];
  const counters: number[] = [];
  for (let i = 0; i <= loads; i += 1) {
    const row = await timeTo(page, '/documents', 'firstRow');
    await listComplete(page, documents);
    const stats = await timeTo(page, '/', 'counters');
    if (i > 0) {
      // The first load of each page warms the browser's caches; it is not counted.
      firstRow.push(row);
      counters.push(stats);
    }
  }
  await page.context().close();
  return { documents, firstRowMs: median(firstRow), countersMs: median(counters) };
}

/** Median time from the last keystroke of `text` to the frame showing its results. */
async function measureSearch(
  browser: Browser,
  server: TestServer,
  session: Session,
  total: number,
  text: string,
  searches: number,
): Promise<number> {
  const page = await newPage(browser, server, session);
  await page.goto('/documents');
  await listComplete(page, total);
  const search = page.getByLabel('Search documents');
  const applied = (value: string) =>
    page.waitForFunction(
      (expected) => {
        const results = document.querySelector('[data-applied-search]');
        if (results?.getAttribute('data-applied-search') !== expected) return false;
        return performance.now() - (window as unknown as { __keydown: number }).__keydown;
      },
      value,
      { polling: 'raf', timeout: 30_000 },
    );
  const times: number[] = [];
  for (let i = 0; i <= searches; i += 1) {
    await search.focus();
    await page.keyboard.type(text);
    const handle = await applied(text);
    // The first search warms the server's and the browser's caches; it is not counted.
    if (i > 0) times.push((await handle.jsonValue()) as number);
    await search.fill('');
    await applied('');
  }
  await page.context().close();
  return median(times);
}

export async function run(options: DocumentsUiOptions = {}): Promise<DocumentsUiResult> {
  const sizes = options.sizes ?? [100, 100_000];
  const loads = options.loads ?? 5;
  const searchText = options.searchText ?? 'insurance policy 1';
  const searches = options.searches ?? 5;
  const distDir =
    process.env.DIST_DIR ?? (await mkdtemp(path.join(os.tmpdir(), 'steward-bench-dist-')));
  const previousDist = process.env.DIST_DIR;
  process.env.DIST_DIR = distDir;
  const { buildIfStale } = await import('../scripts/build-if-stale.ts');
  await buildIfStale();
  if (previousDist === undefined) delete process.env.DIST_DIR;

  // The seeded rows have no files: the text-extraction jobs they queue would find nothing to
  // read and only compete with the page loads measured here.
  const server = await startTestServer({ env: { DIST_DIR: distDir, JOB_POLL_INTERVAL: '1h' } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const sessions = new Map<number, Session>();
    for (const size of sizes) sessions.set(size, await seedOrganization(server, size));
    const results: LoadTimes[] = [];
    for (const size of sizes) {
      results.push(await measureLoads(browser, server, sessions.get(size)!, size, loads));
    }
    const largest = Math.max(...sizes);
    const searchMs: number[] = [];
    for (const size of sizes) {
      searchMs.push(
        await measureSearch(browser, server, sessions.get(size)!, size, searchText, searches),
      );
    }
    const small = results[0]!;
    const large = results.at(-1)!;
    const ratios = {
      firstRow: large.firstRowMs / small.firstRowMs,
      counters: large.countersMs / small.countersMs,
      search: searchMs.at(-1)! / searchMs[0]!,
    };
    const targets = { ratio: 1.5 };
    const pass =
      ratios.firstRow <= targets.ratio &&
      ratios.counters <= targets.ratio &&
      ratios.search <= targets.ratio;
    const fixed = (value: number) => value.toFixed(1);
    const lines = [
      'documents-ui: documents page and dashboard in headless Chromium (median of ' +
        `${loads} loads after a warm-up)`,
      ...results.map(
        (result, i) =>
          `  ${String(result.documents).padStart(6)} documents: first table row ${fixed(result.firstRowMs)} ms, counters ${fixed(result.countersMs)} ms, search "${searchText}" → results ${fixed(searchMs[i]!)} ms (300 ms of it waiting for typing to pause)`,
      ),
      `  ratio ${largest}/${sizes[0]}: first row ${ratios.firstRow.toFixed(2)}×, counters ${ratios.counters.toFixed(2)}×, search ${ratios.search.toFixed(2)}× (target ≤ ${targets.ratio}×)`,
      `  ${pass ? 'PASS' : 'FAIL'}`,
    ];
    return { name: 'documents-ui', loads: results, ratios, searchMs, targets, pass, lines };
  } finally {
    await browser.close();
    await server.close();
    if (previousDist === undefined) await rm(distDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(result.lines.join('\n'));
  process.exitCode = result.pass ? 0 : 1;
}
