import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expectFitsScreen, PHONE, saveScreenshot } from './support/mobile.ts';
import { isoDate, makePdf, signInNewOrganization } from './support/documents.ts';
import { expect, test } from './support/test.ts';

// Document requests in Chromium (issue 25, item 4): an admin asks someone for a certificate
// with a link to hand out; the link opens in a fresh browser context (no account), which sends
// a PDF with its expiry date; the admin sees who has sent theirs and finds the document in the
// list. At a desktop's and a phone's width, with screenshots in test-results/mobile/.

for (const [label, viewport] of [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', PHONE],
] as const) {
  test(`a request link takes a PDF with an expiry date from a browser without an account (${label})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await signInNewOrganization(page, baseURL!);

    await page.goto('/requests');
    await page.getByRole('button', { name: 'New request' }).click();
    const form = page.getByRole('region', { name: 'New request' });
    await form.getByLabel('Title').fill('Background-check certificate');
    await form.getByLabel('Instructions').fill('A scan of the whole certificate, please.');
    await form.getByLabel('Category').selectOption('Volunteer/People Management');
    await form.getByLabel('Name of person 1').fill('Sam Volunteer');
    await expectFitsScreen(page, `new request (${label})`);
    await saveScreenshot(page, `new document request ${label}`);
    await form.getByRole('button', { name: 'Send request' }).click();
    const links = page.getByRole('region', { name: 'New links' });
    const url = (await links.locator('code').innerText()).trim();
    expect(url).toMatch(/\/r\/[0-9a-f]{64}$/);
    await links.getByRole('button', { name: 'Done' }).click();
    const request = page.getByRole('region', { name: 'Background-check certificate' });
    await expect(request.getByText('Not sent yet')).toBeVisible();

    // The person asked: a fresh context without an account.
    const visitor = await browser.newContext({ viewport });
    const upload = await visitor.newPage();
    await upload.goto(url);
    await expect(
      upload.getByRole('heading', { name: 'Background-check certificate' }),
    ).toBeVisible();
    await expect(upload.getByText('A scan of the whole certificate, please.')).toBeVisible();
    await expect(upload.getByLabel('Your name')).toHaveValue('Sam Volunteer');
    await upload.getByLabel('Your e-mail').fill('sam@example.org');
    await upload.getByLabel('Expiry date').fill(isoDate(400));
    const file = path.join(test.info().outputPath(), 'certificate.pdf');
    await writeFile(file, makePdf('Enhanced background check: clear'));
    await upload.getByLabel('Document').setInputFiles(file);
    await expectFitsScreen(upload, `request upload page (${label})`);
    await saveScreenshot(upload, `request upload ${label}`);
    await upload.getByRole('button', { name: 'Send document' }).click();
    await expect(upload.getByRole('heading', { name: 'Thank you' })).toBeVisible();
    await saveScreenshot(upload, `request sent ${label}`);
    // The link is used up.
    await upload.goto(url);
    await expect(upload.getByText('This link no longer works.', { exact: false })).toBeVisible();
    await visitor.close();

    // The admin sees it arrive.
    await page.reload();
    await expect(request.getByText(/^Sent /)).toBeVisible();
    await expect(request.getByText('1 of 1 sent', { exact: false })).toBeVisible();
    await expect(request.getByText('From Sam Volunteer <sam@example.org>')).toBeVisible();
    await saveScreenshot(page, `document requests ${label}`);
    await page.goto('/documents');
    await expect(
      page.getByRole('button', {
        name: 'Actions for Background-check certificate – Sam Volunteer.pdf',
      }),
    ).toBeVisible();
  });
}
