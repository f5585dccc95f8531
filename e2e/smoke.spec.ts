import { signInNewOrganization } from './support/documents.ts';
import { expect, test } from './support/test.ts';

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

test('a new organisation moves through its pages without an error or a failed request', async ({
  page,
  baseURL,
}) => {
  await signInNewOrganization(page, baseURL!);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  for (const [path, heading] of [
    ['/', /Grace Church/],
    ['/documents', 'Documents'],
    ['/upload', 'Upload Documents'],
    ['/operations', 'Operations Center'],
    ['/users', 'User Management'],
    ['/oauth', /Connections/],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(problems).toEqual([]);
});
