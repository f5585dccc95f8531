import type { Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  chooseRowAction,
  isoDate,
  makePdf,
  signInNewOrganization,
  type SignedInMember,
} from './support/documents.ts';
import { expect, test } from './support/test.ts';

// Issue 13 in Chromium: a batch with different details per file and its progress, finding a
// scanned image and a PDF by words only inside them, the list's state in the address, sorting
// by expiry, renaming, tagging several documents at once and downloading them as one ZIP.

const stamp = Date.now().toString(36);
const scan = {
  name: `scan-${stamp}.png`,
  mimeType: 'image/png',
  buffer: await readFile(
    path.join(
      import.meta.dirname,
      '..',
      'tests',
      'fixtures',
      'extraction',
      'scanned-certificate.png',
    ),
  ),
};
const report = {
  name: `report-${stamp}.pdf`,
  mimeType: 'application/pdf',
  buffer: makePdf('Quinquennial inspection of the tower'),
};
// Large enough to watch its progress on a slowed connection (a PDF followed by padding).
const big = {
  name: `archive-${stamp}.pdf`,
  mimeType: 'application/pdf',
  buffer: Buffer.concat([makePdf('Archive'), Buffer.alloc(600 * 1024, 0x20)]),
};

function row(page: Page, name: string) {
  return page.getByRole('row').filter({ hasText: name });
}

/** Waits until the server has read the text of every named document. */
async function textsReady(member: SignedInMember, names: string[]) {
  await expect
    .poll(
      async () => {
        const { data } = await member.api
          .from('documents')
          .select('name, document_texts(state)')
          .in('name', names);
        return (data ?? [])
          .map(
            (d) =>
              (d as unknown as { document_texts: { state: string } | null }).document_texts?.state,
          )
          .sort();
      },
      { timeout: 60_000 },
    )
    .toEqual(names.map(() => 'ready'));
}

test.describe.configure({ mode: 'serial' });

test('a batch with its own details per file, its progress, and search inside the files', async ({
  page,
  baseURL,
}) => {
  const member = await signInNewOrganization(page, baseURL!);
  await page.goto('/upload');
  await page.getByLabel('Choose files to upload').setInputFiles([scan, report, big]);
  await page.getByLabel('Category', { exact: false }).first().selectOption('Other');
  await page.getByRole('button', { name: `Own details for ${report.name}` }).click();
  const own = page.getByRole('group', { name: `Details of ${report.name}` });
  await own.getByLabel('Category', { exact: false }).selectOption('Governance');
  await own.getByLabel('Expiry Date').fill(isoDate(-2));

  // A slow connection, to see the percentage move.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 100 * 1024,
  });
  await page.getByRole('button', { name: 'Upload Documents' }).click();
  await expect(page.getByText(/^Uploading\.\.\. [1-9][0-9]?%$/)).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/documents$/, { timeout: 60_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  const stored = await member.api.from('documents').select('name, category, expiry_date');
  expect(stored.data).toEqual(
    expect.arrayContaining([
      { name: scan.name, category: 'Other', expiry_date: null },
      { name: report.name, category: 'Governance', expiry_date: isoDate(-2) },
      { name: big.name, category: 'Other', expiry_date: null },
    ]),
  );

  // Words only inside the files: OCR of the scan, the PDF's text.
  await textsReady(member, [scan.name, report.name]);
  const search = page.getByLabel('Search documents');
  await search.fill('Lakeside retreat');
  await expect(row(page, scan.name)).toBeVisible();
  await expect(row(page, scan.name).locator('mark').first()).toHaveText('Lakeside');
  await expect(page.getByRole('row')).toHaveCount(2);
  await search.fill('quinquennial');
  await expect(row(page, report.name)).toBeVisible();
  await expect(page).toHaveURL(/[?&]q=quinquennial/);

  // Reload keeps the search; so does a shared link with a filter.
  await page.reload();
  await expect(page.getByLabel('Search documents')).toHaveValue('quinquennial');
  await expect(row(page, report.name)).toBeVisible();
  await page.goto('/documents?expiry=overdue');
  await expect(page.getByLabel('Filter by expiry')).toHaveValue('overdue');
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(row(page, report.name)).toBeVisible();

  // Sort by expiry: the dated document first, those without a date after it.
  await page.goto('/documents');
  await page.getByRole('columnheader', { name: 'Expiry Date' }).getByRole('button').click();
  await expect(page).toHaveURL(/sort=expiry_date/);
  await expect(page.getByRole('row').nth(1)).toContainText(report.name);
});

/** Stores `file` and its document row as `owner`, as an upload does. */
async function addDocument(
  owner: SignedInMember,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  const filePath = `documents/${owner.organizationId}/${Date.now()}-${Math.random().toString(36).slice(2)}${path.extname(file.name)}`;
  const stored = await owner.api.storage
    .from('documents')
    .upload(filePath, file.buffer, { contentType: file.mimeType });
  if (stored.error) throw new Error(stored.error.message);
  const inserted = await owner.api.from('documents').insert({
    organization_id: owner.organizationId,
    name: file.name,
    category: 'Other',
    size: file.buffer.length,
    file_path: filePath,
    tags: [],
    status: 'Active',
  });
  if (inserted.error) throw new Error(inserted.error.message);
}

test('rename, tag several at once, and download them as one ZIP', async ({ page, baseURL }) => {
  const owner = await signInNewOrganization(page, baseURL!);
  for (const file of [scan, report, big]) await addDocument(owner, file);
  await page.goto('/documents');
  await chooseRowAction(page, scan.name, 'Edit Properties');
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Insurance certificate');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(row(page, 'Insurance certificate.png')).toBeVisible();

  await page.getByRole('checkbox', { name: 'Select Insurance certificate.png' }).check();
  await page.getByRole('checkbox', { name: `Select ${report.name}` }).check();
  const bar = page.getByRole('region', { name: 'Selected documents' });
  await expect(bar).toContainText('2 documents selected');
  await bar.getByLabel('Tags for the selected documents').fill('youth camp');
  await bar.getByRole('button', { name: 'Add Tags' }).click();
  await expect(row(page, 'Insurance certificate.png')).toContainText('youth camp');
  await expect(row(page, report.name)).toContainText('youth camp');
  await expect(row(page, big.name)).not.toContainText('youth camp');

  await page.getByRole('checkbox', { name: 'Select Insurance certificate.png' }).check();
  await page.getByRole('checkbox', { name: `Select ${report.name}` }).check();
  const downloading = page.waitForEvent('download');
  await page
    .getByRole('region', { name: 'Selected documents' })
    .getByRole('button', { name: 'Download ZIP' })
    .click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('documents.zip');
  const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  expect(Object.keys(files).sort()).toEqual(['Insurance certificate.png', report.name].sort());
  expect(Buffer.from(files['Insurance certificate.png']!).equals(scan.buffer)).toBe(true);
  expect(Buffer.from(files[report.name]!).equals(report.buffer)).toBe(true);
});
