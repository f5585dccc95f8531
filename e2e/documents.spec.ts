import type { Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import {
  chooseRowAction,
  isoDate,
  makeDocx,
  makePdf,
  makePng,
  signInNewOrganization,
  type SignedInMember,
} from './support/documents.ts';
import { expect, test } from './support/test.ts';

const stamp = Date.now().toString(36);
const files = {
  pdf: { name: `budget-${stamp}.pdf`, mimeType: 'application/pdf', buffer: makePdf('Budget 2025') },
  png: { name: `logo-${stamp}.png`, mimeType: 'image/png', buffer: makePng() },
  txt: {
    name: `notes-${stamp}.txt`,
    mimeType: 'text/plain',
    buffer: Buffer.from('Board meeting notes\nItem one\n'),
  },
  docx: {
    name: `minutes-${stamp}.docx`,
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: makeDocx('Minutes of the elder board'),
  },
};
const expiry = isoDate(10);

function row(page: Page, name: string) {
  return page.getByRole('row').filter({ hasText: name });
}

async function openPreview(page: Page, name: string) {
  await chooseRowAction(page, name, 'View');
  return page.getByRole('dialog');
}

test.describe.configure({ mode: 'serial' });

let member: SignedInMember;

test('upload four files at once, then preview, edit, download and delete them', async ({
  page,
  baseURL,
}) => {
  member = await signInNewOrganization(page, baseURL!);

  // Upload: four kinds in one go, with category, expiry date and tags.
  await page.goto('/upload');
  await page.getByLabel('Choose files to upload').setInputFiles(Object.values(files));
  for (const file of Object.values(files)) {
    await expect(page.getByText(file.name)).toBeVisible();
  }
  await page.getByLabel('Category').selectOption('Legal');
  await page.getByLabel('Expiry Date').fill(expiry);
  await page.getByLabel('Tags').fill(' board , 2025,, contracts, archive ');
  await page.getByRole('button', { name: 'Upload Documents' }).click();
  await expect(page).toHaveURL(/\/documents$/);

  // Each appears in the table, with three tags and +1, the expiry date and the status.
  for (const file of Object.values(files)) {
    const line = row(page, file.name);
    await expect(line).toBeVisible();
    await expect(line).toContainText('Legal');
    await expect(line).toContainText('+1');
    await expect(line).toContainText('Active');
  }
  // Edit Content is in the actions of text files only.
  await page.getByRole('button', { name: `Actions for ${files.txt.name}`, exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Edit Content' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: `Actions for ${files.pdf.name}`, exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'View' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Edit Content' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  const stored = await member.api
    .from('documents')
    .select('name, category, tags, expiry_date, status, size, file_path, description');
  expect(stored.error).toBeNull();
  expect(stored.data).toHaveLength(4);
  for (const document of stored.data!) {
    expect(document).toMatchObject({
      category: 'Legal',
      tags: ['board', '2025', 'contracts', 'archive'],
      expiry_date: expiry,
      status: 'Active',
      description: null,
    });
    expect(document.file_path).toMatch(
      new RegExp(`^documents/${member.organizationId}/\\d+-[a-z0-9]+\\.(pdf|png|txt|docx)$`),
    );
  }

  // The dashboard counts them and lists them as recent and as renewals due soon.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: member.organizationName })).toBeVisible();
  const stats = page.getByTestId('dashboard-stats');
  await expect(stats.getByText('Total Documents').locator('..')).toContainText('4');
  await expect(stats.getByText('Expiring Soon').locator('..')).toContainText('4');
  await expect(stats.getByText('Overdue').locator('..')).toContainText('0');
  await expect(stats.getByText('Categories').locator('..')).toContainText('1');
  const recent = page.getByRole('region', { name: 'Recent Documents' });
  const renewals = page.getByRole('region', { name: 'Upcoming Renewals' });
  for (const file of Object.values(files)) {
    await expect(recent.getByText(file.name)).toBeVisible();
    await expect(renewals.getByText(file.name)).toBeVisible();
  }
  await expect(renewals.getByText('soon', { exact: true })).toHaveCount(4);

  // Previews: the PDF and the image render, the text shows, the Word file as Steward renders it.
  await page.goto('/documents');
  let dialog = await openPreview(page, files.pdf.name);
  const frame = dialog.locator('iframe');
  // From an address ending with the document's name, which the PDF viewer shows as its title.
  await expect(frame).toHaveAttribute(
    'src',
    new RegExp(
      `/preview/v1/file/${encodeURIComponent(files.pdf.name).replace(/\./g, '\\.')}\\?token=`,
    ),
  );
  // Chromium hands the frame to its built-in PDF viewer (an extension frame inside it), which
  // it does only for a document it recognised as a PDF.
  const pdfFrame = await (await frame.elementHandle())!.contentFrame();
  await expect
    .poll(() => pdfFrame!.childFrames().map((child) => new URL(child.url()).protocol))
    .toContain('chrome-extension:');
  await expect(dialog.getByText('Unable to load document')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();

  dialog = await openPreview(page, files.png.name);
  const image = dialog.getByRole('img', { name: files.png.name });
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBe(16);
  await dialog.getByRole('button', { name: 'Close' }).click();

  dialog = await openPreview(page, files.txt.name);
  await expect(dialog.getByText('Board meeting notes')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  dialog = await openPreview(page, files.docx.name);
  await expect(dialog.frameLocator('iframe').getByText('Minutes of the elder board')).toBeVisible({
    timeout: 30_000,
  });
  // Nothing of the member's file is sent to Office Online (issue 25).
  await expect(dialog.getByRole('link', { name: /Office Online/ })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Edit the text file's content; the new text is there after a reload.
  await chooseRowAction(page, files.txt.name, 'Edit Content');
  dialog = page.getByRole('dialog');
  const editor = dialog.getByRole('textbox', { name: `Content of ${files.txt.name}` });
  await expect(editor).toHaveValue('Board meeting notes\nItem one\n');
  const newText = 'Board meeting notes\nItem one\nItem two: approved\n';
  await editor.fill(newText);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('All changes saved')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  dialog = await openPreview(page, files.txt.name);
  await expect(dialog.getByText('Item two: approved')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  const edited = await member.api
    .from('documents')
    .select('size')
    .eq('name', files.txt.name)
    .single();
  expect(edited.data?.size).toBe(Buffer.byteLength(newText));

  // Edited a second time, the file keeps both earlier ones as versions; the first downloads
  // with the bytes it was uploaded with.
  await chooseRowAction(page, files.txt.name, 'Edit Content');
  dialog = page.getByRole('dialog');
  await dialog
    .getByRole('textbox', { name: `Content of ${files.txt.name}` })
    .fill(`${newText}Item three: adjourned\n`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('All changes saved')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  dialog = await openPreview(page, files.txt.name);
  await dialog.getByRole('tab', { name: 'Versions' }).click();
  const versions = dialog.getByRole('region', { name: 'Earlier versions' }).getByRole('listitem');
  await expect(versions).toHaveCount(2);
  const firstVersion = page.waitForEvent('download');
  await dialog.getByRole('button', { name: `Download version 1 of ${files.txt.name}` }).click();
  const first = await firstVersion;
  expect(Buffer.compare(await readFile((await first.path())!), files.txt.buffer)).toBe(0);

  // Restoring version 1 brings its bytes back (a copy the server checks byte for byte) and keeps
  // the file it replaces as a third version.
  await dialog.getByRole('button', { name: `Restore version 1 of ${files.txt.name}` }).click();
  await page
    .getByRole('dialog', { name: 'Please confirm' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect(versions).toHaveCount(3);
  const restored = await member.api
    .from('documents')
    .select('file_path')
    .eq('name', files.txt.name)
    .single();
  const current = await member.api.storage.from('documents').download(restored.data!.file_path);
  expect(Buffer.compare(Buffer.from(await current.data!.arrayBuffer()), files.txt.buffer)).toBe(0);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Edit properties of the image.
  await chooseRowAction(page, files.png.name, 'Edit Properties');
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Category').selectOption('Branding');
  await dialog.getByLabel('Tags').fill('logo, print');
  await dialog.getByLabel('Expiry Date').fill('');
  await dialog.getByLabel('Description').fill('The logo for print');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toHaveCount(0);
  const pngRow = row(page, files.png.name);
  await expect(pngRow).toContainText('Branding');
  await expect(pngRow).toContainText('logo');
  await expect(pngRow).toContainText('N/A');
  const properties = await member.api
    .from('documents')
    .select('category, tags, expiry_date, description')
    .eq('name', files.png.name)
    .single();
  expect(properties.data).toEqual({
    category: 'Branding',
    tags: ['logo', 'print'],
    expiry_date: null,
    description: 'The logo for print',
  });

  // Download returns the same bytes that were uploaded.
  const downloading = page.waitForEvent('download');
  await chooseRowAction(page, files.pdf.name, 'Download');
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(files.pdf.name);
  expect(Buffer.compare(await readFile((await download.path())!), files.pdf.buffer)).toBe(0);

  // Delete moves the document to the trash with its file; the Trash page restores it.
  const docx = await member.api
    .from('documents')
    .select('id, file_path')
    .eq('name', files.docx.name)
    .single();
  await chooseRowAction(page, files.docx.name, 'Delete');
  const confirmation = page.getByRole('dialog', { name: 'Please confirm' });
  await expect(confirmation).toContainText(`Are you sure you want to delete "${files.docx.name}"?`);
  await confirmation.getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, files.docx.name)).toHaveCount(0);
  const hidden = await member.api.from('documents').select('id').eq('id', docx.data!.id);
  expect(hidden.data).toEqual([]);
  const kept = await member.api.storage.from('documents').download(docx.data!.file_path);
  expect(Buffer.compare(Buffer.from(await kept.data!.arrayBuffer()), files.docx.buffer)).toBe(0);

  // Trash is in the bar's More menu (issue 24).
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByRole('link', { name: 'Trash' }).first().click();
  const trashed = page.getByRole('list', { name: 'Deleted documents' }).getByRole('listitem');
  await expect(trashed).toHaveCount(1);
  await expect(trashed.first()).toContainText(files.docx.name);
  await page.getByRole('button', { name: `Restore ${files.docx.name}` }).click();
  await expect(page.getByText('The trash is empty.')).toBeVisible();
  await page.getByRole('link', { name: 'Documents' }).first().click();
  await expect(row(page, files.docx.name)).toHaveCount(1);
});

test('a dialog with typed input asks before the page is left: back button and closing the tab', async ({
  page,
  baseURL,
}) => {
  const owner = await signInNewOrganization(page, baseURL!);
  const filePath = `documents/${owner.organizationId}/${Date.now()}-guard.pdf`;
  const stored = await owner.api.storage
    .from('documents')
    .upload(filePath, files.pdf.buffer, { contentType: 'application/pdf' });
  expect(stored.error).toBeNull();
  const inserted = await owner.api.from('documents').insert({
    organization_id: owner.organizationId,
    name: 'Guarded policy.pdf',
    category: 'Legal',
    size: files.pdf.buffer.length,
    file_path: filePath,
    status: 'Active',
  });
  expect(inserted.error).toBeNull();

  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Documents' })
    .click();
  await chooseRowAction(page, 'Guarded policy.pdf', 'Edit Properties');
  const dialog = page.getByRole('dialog', { name: /Edit Properties/ });
  await dialog.getByLabel('Description').fill('Renewed by the board');

  // The browser's back button: asked first; Stay keeps the page and what was typed.
  await page.evaluate(() => window.history.back());
  const question = page.getByRole('dialog', { name: 'Leave this page?' });
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: 'Stay' })).toBeFocused();
  await question.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/documents$/);
  await expect(dialog.getByLabel('Description')).toHaveValue('Renewed by the board');

  // Closing the tab: the browser asks in its own words.
  const unload = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const asked = await unload;
  expect(asked.type()).toBe('beforeunload');
  await asked.dismiss();
});
