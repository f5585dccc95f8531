import type { Page } from 'playwright-core';

/**
 * Installed before any of the page's own script runs: records first contentful paint, the
 * largest contentful paint candidates and every long task (over 50 ms) with the browser's own
 * PerformanceObserver. A string, not a function: tsx would compile a function with helpers
 * that do not exist in the page.
 */
export const INSTALL_PAGE_METRICS = `
  (() => {
    const m = { fcp: null, lcp: null, lcpElement: null, longTasks: [] };
    window.__pageMetrics = m;
    const observe = (type, onEntry) => {
      try {
        new PerformanceObserver((list) => list.getEntries().forEach(onEntry))
          .observe({ type, buffered: true });
      } catch (error) {
        m.unsupported = (m.unsupported || []).concat(type);
      }
    };
    observe('paint', (e) => { if (e.name === 'first-contentful-paint') m.fcp = e.startTime; });
    observe('largest-contentful-paint', (e) => {
      m.lcp = e.startTime;
      const el = e.element;
      m.lcpElement = el ? el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' +
        (el.textContent || '').trim().slice(0, 40) + '"' : null;
    });
    observe('longtask', (e) => { m.longTasks.push([e.startTime, e.duration]); });
  })();
`;

interface RawMetrics {
  fcp: number | null;
  lcp: number | null;
  lcpElement: string | null;
  longTasks: [number, number][];
  unsupported?: string[];
}

/** The figures of one page load, in the manner of Lighthouse (lab data, no throttling). */
export interface PageLoad {
  fcpMs: number;
  lcpMs: number;
  lcpElement: string | null;
  /** Σ (part of each long task after FCP and before TTI − 50 ms). */
  tbtMs: number;
  /** End of the last long task before the quiet window (or FCP if there was none). */
  ttiMs: number;
  longTasks: number;
  /** Bytes of JavaScript transferred (Resource Timing `transferSize`, headers included). */
  jsTransferBytes: number;
  jsFiles: string[];
}

const QUIET_MS = 2_000;

/**
 * Waits until the page has been quiet (no long task and no new resource) for two seconds, then
 * reads its metrics. Lighthouse waits for a 5 s quiet window; 2 s keeps the run short and no
 * page here has work scheduled that late.
 */
export async function collectPageLoad(page: Page, timeoutMs = 60_000): Promise<PageLoad> {
  const deadline = Date.now() + timeoutMs;
  let lastSignature = '';
  let quietSince = Date.now();
  for (;;) {
    const signature = await page.evaluate(
      () =>
        `${performance.getEntriesByType('resource').length}:${
          (window as unknown as { __pageMetrics: RawMetrics }).__pageMetrics.longTasks.length
        }`,
    );
    if (signature !== lastSignature) {
      lastSignature = signature;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= QUIET_MS) {
      break;
    }
    if (Date.now() > deadline) throw new Error('the page never became quiet');
    await page.waitForTimeout(100);
  }
  const { raw, scripts } = await page.evaluate(() => ({
    raw: (window as unknown as { __pageMetrics: RawMetrics }).__pageMetrics,
    scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
      .map((entry) => ({ name: new URL(entry.name).pathname, transferSize: entry.transferSize })),
  }));
  if (raw.unsupported?.length) throw new Error(`unsupported: ${raw.unsupported.join(', ')}`);
  if (raw.fcp === null || raw.lcp === null) throw new Error('no contentful paint was recorded');
  const fcp = raw.fcp;
  const lastEnd = raw.longTasks.reduce(
    (end, [start, duration]) => Math.max(end, start + duration),
    0,
  );
  const tti = Math.max(fcp, lastEnd);
  let tbt = 0;
  for (const [start, duration] of raw.longTasks) {
    const from = Math.max(start, fcp);
    const to = Math.min(start + duration, tti);
    if (to - from > 50) tbt += to - from - 50;
  }
  return {
    fcpMs: fcp,
    lcpMs: raw.lcp,
    lcpElement: raw.lcpElement,
    tbtMs: tbt,
    ttiMs: tti,
    longTasks: raw.longTasks.length,
    jsTransferBytes: scripts.reduce((sum, s) => sum + s.transferSize, 0),
    jsFiles: scripts.map((s) => s.name),
  };
}
