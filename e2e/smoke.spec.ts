import { expect, test } from '@playwright/test';

test('the app loads with its security headers and no inline script', async ({ page, request }) => {
  const response = await request.get('/');
  expect(response.status()).toBe(200);
  const csp = response.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain("unsafe-inline' 'unsafe-eval");
  expect(response.headers()['x-content-type-options']).toBe('nosniff');

  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/');
  await expect(page.locator('#root')).not.toBeEmpty();
  expect(errors).toEqual([]);
});
