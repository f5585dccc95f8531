import { readFile } from 'node:fs/promises';
import { unzip } from '../tests/support/zip-files.ts';
import { makePdf, signInNewOrganization } from './support/documents.ts';
import { expect, test } from './support/test.ts';

// Export in Chromium (issue 15): an admin starts an export on the Activity page, waits for it,
// downloads the ZIP; the test unpacks it and compares the file's bytes and the manifest.

test('an admin exports the organisation and the ZIP holds the file and its properties', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { api, organizationId, email } = await signInNewOrganization(page, baseURL!);
  const original = makePdf('Building insurance 2026');
  const stored = `documents/${organizationId}/${Date.now()}-insurance.pdf`;
  const upload = await api.storage
    .from('documents')
    .upload(stored, original, { contentType: 'application/pdf' });
  expect(upload.error).toBeNull();
  const inserted = await api.from('documents').insert({
    organization_id: organizationId,
    name: 'Building insurance.pdf',
    category: 'Legal',
    file_path: stored,
    size: original.length,
    tags: ['insurance', 'building'],
    expiry_date: '2027-06-30',
  });
  expect(inserted.error).toBeNull();

  await page.goto('/activity');
  const panel = page.getByRole('region', { name: 'Export & import' });
  await panel.getByRole('button', { name: 'Start export' }).click();
  await expect(panel.getByText(/^Export ready: 1 document, /)).toBeVisible({ timeout: 60_000 });

  const downloading = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^steward-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = await unzip(await readFile((await download.path())!));

  expect(files.get('Legal/Building insurance.pdf')!.equals(original)).toBe(true);
  const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as {
    format: string;
    documents: Record<string, unknown>[];
  };
  expect(manifest.format).toBe('steward-organization-export');
  expect(manifest.documents).toEqual([
    expect.objectContaining({
      name: 'Building insurance.pdf',
      category: 'Legal',
      tags: ['insurance', 'building'],
      expiry_date: '2027-06-30',
      size: original.length,
      file: 'Legal/Building insurance.pdf',
      responsible: expect.objectContaining({ email }),
    }),
  ]);
  expect(files.get('manifest.csv')!.toString('utf8')).toContain(
    'Building insurance.pdf,Legal,2027-06-30,insurance; building,',
  );
  // The export is in the history, named.
  await expect(page.getByText('Exported 1 document', { exact: true })).toBeVisible();
});
