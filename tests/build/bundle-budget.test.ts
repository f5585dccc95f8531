import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleReport, kb, type BundleReport } from '../../scripts/bundle-report.ts';

/** The performance budget (issue 8): what a signed-in user downloads to see the dashboard. */
const DASHBOARD_BUDGET_GZIP = 150 * 1024;
/** The entry chunk is on the path of every page, including sign-in and invitations. */
const ENTRY_BUDGET_GZIP = 130 * 1024;

const rootDir = path.resolve(import.meta.dirname, '../..');
let outDir: string;
let report: BundleReport;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'steward-bundle-'));
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: rootDir,
      mode: 'production',
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  report = await bundleReport(outDir);
  console.log(
    `bundle: entry ${kb(report.entry.gzipBytes)} gzip, dashboard ${kb(report.dashboardGzipTotal)} gzip in ${report.dashboard.length} chunks`,
  );
}, 180_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('performance budget', () => {
  it('keeps the entry chunk within its budget', () => {
    expect(report.entry.gzipBytes).toBeLessThanOrEqual(ENTRY_BUDGET_GZIP);
  });

  it('keeps the JavaScript for the dashboard within 150 KB gzip', () => {
    expect(report.dashboardGzipTotal).toBeLessThanOrEqual(DASHBOARD_BUDGET_GZIP);
  });

  it('loads each page as its own chunk', () => {
    const pages = ['documents-page', 'upload-page', 'users-page', 'connections-page'];
    for (const page of pages) {
      expect(report.all.some((chunk) => chunk.file.includes(page))).toBe(true);
      expect(report.dashboard.some((chunk) => chunk.file.includes(page))).toBe(false);
    }
  });
});
