import { expect, type Locator, type Page } from '@playwright/test';
import path from 'node:path';
import { test } from './test.ts';

/** The narrowest phone the product supports (issue 8). */
export const PHONE = { width: 375, height: 812 };

/**
 * The page body does not scroll sideways at the current width, and no control sticks out of
 * the screen unless it sits in a container that scrolls sideways on its own (a wide table).
 */
export async function expectFitsScreen(page: Page, label: string) {
  const report = await page.evaluate(() => {
    const width = window.innerWidth;
    const scrollsSideways = (element: Element) => {
      const style = getComputedStyle(element);
      return (
        ['auto', 'scroll'].includes(style.overflowX) && element.scrollWidth > element.clientWidth
      );
    };
    const insideScroller = (element: Element) => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (parent === document.body) return false;
        if (scrollsSideways(parent)) return true;
      }
      return false;
    };
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]:not([tabindex="-1"])',
    );
    const outside = Array.from(controls)
      .filter((element) => element.checkVisibility() && !element.closest('.sr-only'))
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 1 && (box.left < -1 || box.right > width + 1);
      })
      .filter((element) => !insideScroller(element))
      .map((element) => {
        const box = element.getBoundingClientRect();
        const name =
          element.getAttribute('aria-label') ?? element.innerText?.trim().slice(0, 40) ?? '';
        return `${element.tagName.toLowerCase()} "${name}" at ${Math.round(box.left)}–${Math.round(box.right)}`;
      });
    return {
      width,
      documentWidth: document.documentElement.scrollWidth,
      bodyWidth: document.body.scrollWidth,
      outside,
    };
  });
  expect
    .soft(report.documentWidth, `${label}: the page scrolls sideways`)
    .toBeLessThanOrEqual(report.width);
  expect
    .soft(report.bodyWidth, `${label}: the body is wider than the screen`)
    .toBeLessThanOrEqual(report.width);
  expect.soft(report.outside, `${label}: controls outside the screen`).toEqual([]);
}

/** `locator` is shown and lies wholly within the screen's width once scrolled to. */
export async function expectReachable(locator: Locator, label: string) {
  await locator.scrollIntoViewIfNeeded();
  await expect(locator, `${label} is visible`).toBeVisible();
  const box = await locator.boundingBox();
  const width = locator.page().viewportSize()!.width;
  expect.soft(box, `${label} has a box`).not.toBeNull();
  if (box) {
    expect.soft(box.x, `${label} starts on screen`).toBeGreaterThanOrEqual(0);
    expect.soft(box.x + box.width, `${label} ends on screen`).toBeLessThanOrEqual(width + 1);
  }
}

/** Saves a screenshot into test-results/mobile/ (kept out of git), named after `name`. */
export async function saveScreenshot(page: Page, name: string, fullPage = true) {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const file = path.join(test.info().project.outputDir, 'mobile', `${slug || 'root'}.png`);
  // From the top: a page scrolled by an earlier check would draw its sticky bar mid-page.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage, animations: 'disabled' });
  return file;
}
