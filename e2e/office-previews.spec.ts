import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { paragraph, table, wordDocument } from '../tests/support/office-files.ts';
import { signInNewOrganization, makePdf, type SignedInMember } from './support/documents.ts';
import { expectFitsScreen, PHONE, saveScreenshot } from './support/mobile.ts';
import { expect, test } from './support/test.ts';

// Word and Excel previews in Chromium (issue 25, item 2), on a desktop (1366 px) and a phone
// (375 px): the name of a Word file opens its preview, which shows its heading, list and table
// as Steward rendered them, in a sandboxed frame titled with the document's name; an Excel
// workbook shows both its sheets under their names; a PDF is framed from an address ending with
// its name. Screenshots in test-results/mobile/.

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Stores `bytes` and adds its document row, as an upload does. */
async function seed(member: SignedInMember, name: string, bytes: Uint8Array, type: string) {
  const filePath = `documents/${member.organizationId}/${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const stored = await member.api.storage
    .from('documents')
    .upload(filePath, Buffer.from(bytes), { contentType: type });
  expect(stored.error).toBeNull();
  const inserted = await member.api
    .from('documents')
    .insert({
      organization_id: member.organizationId,
      name,
      category: 'Governance',
      file_path: filePath,
      size: bytes.byteLength,
    })
    .select('id')
    .single<{ id: string }>();
  expect(inserted.error).toBeNull();
  return inserted.data!.id;
}

async function workbook(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Rota').addRows([
    ['Sunday', 'Reader', 'Coffee'],
    ['1 March', 'Ada Lovelace', 'Grace Hopper'],
    ['8 March', 'Mary Somerville', 'Emmy Noether'],
  ]);
  book.addWorksheet('Budget').addRows([
    ['Item', 'Amount'],
    ['Roof repair', 12500],
  ]);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

async function openPreview(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(name.replace('.', '\\.')) });
  await expect(dialog).toBeVisible();
  return dialog;
}

for (const [label, viewport] of [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', PHONE],
] as const) {
  test(`Word and Excel files preview as Steward renders them (${label})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const member = await signInNewOrganization(page, baseURL!);
    const handbookId = await seed(
      member,
      'Volunteer Handbook.docx',
      wordDocument(
        paragraph('Volunteer Handbook', { style: 'Heading1' }) +
          paragraph('Two adults present at every session', { list: true }) +
          paragraph('Sign the register', { list: true }) +
          table([
            ['Role', 'Contact'],
            ['Safeguarding lead', 'Ruth Ellis'],
          ]),
      ),
      DOCX,
    );
    await seed(member, 'Rota and budget.xlsx', await workbook(), XLSX);
    await seed(
      member,
      'Insurance 2027.pdf',
      makePdf('Certificate of insurance'),
      'application/pdf',
    );
    await page.goto('/documents');

    let dialog = await openPreview(page, 'Volunteer Handbook.docx');
    const word = dialog.getByTitle('Volunteer Handbook.docx', { exact: true });
    await expect(word).toHaveAttribute('sandbox', '');
    const wordPage = dialog.frameLocator('iframe[title="Volunteer Handbook.docx"]');
    await expect(wordPage.getByRole('heading', { name: 'Volunteer Handbook' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(wordPage.getByRole('listitem')).toHaveText([
      'Two adults present at every session',
      'Sign the register',
    ]);
    await expect(wordPage.getByRole('cell', { name: 'Ruth Ellis' })).toBeVisible();
    await expectFitsScreen(page, `Word preview (${label})`);
    await saveScreenshot(page, `office preview word ${label}`, false);
    await dialog.getByRole('button', { name: 'Close' }).click();

    dialog = await openPreview(page, 'Rota and budget.xlsx');
    const sheets = dialog.frameLocator('iframe[title="Rota and budget.xlsx"]');
    await expect(sheets.getByRole('heading', { name: 'Rota' })).toBeVisible({ timeout: 30_000 });
    await expect(sheets.getByRole('heading', { name: 'Budget' })).toBeVisible();
    await expect(sheets.getByRole('cell', { name: 'Grace Hopper' })).toBeVisible();
    await expect(sheets.getByRole('cell', { name: 'Roof repair' })).toBeVisible();
    await expectFitsScreen(page, `Excel preview (${label})`);
    await saveScreenshot(page, `office preview excel ${label}`, false);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The PDF viewer shows the address's last segment as its title: the document's name.
    dialog = await openPreview(page, 'Insurance 2027.pdf');
    const pdf = dialog.getByTitle('Preview of Insurance 2027.pdf');
    await expect(pdf).toHaveAttribute('src', /\/preview\/v1\/file\/Insurance%202027\.pdf\?token=/);
    await saveScreenshot(page, `office preview pdf ${label}`, false);

    // A share link's page shows the same preview to someone without an account.
    const session = (await member.api.auth.getSession()).data.session!;
    const made = await fetch(`${baseURL}/share/v1/links`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${session.access_token}`,
      },
      body: JSON.stringify({ document_id: handbookId }),
    });
    expect(made.status).toBe(201);
    const { token } = (await made.json()) as { token: string };
    const visitor = await browser.newContext({ viewport });
    const shared = await visitor.newPage();
    await shared.goto(`/s/${token}`);
    const sharedFrame = shared.getByTitle('Volunteer Handbook.docx', { exact: true });
    await expect(sharedFrame).toHaveAttribute('sandbox', '');
    await expect(
      shared
        .frameLocator('iframe[title="Volunteer Handbook.docx"]')
        .getByRole('heading', { name: 'Volunteer Handbook' }),
    ).toBeVisible();
    await expectFitsScreen(shared, `shared Word preview (${label})`);
    await saveScreenshot(shared, `office preview shared ${label}`, false);
    await visitor.close();
  });
}
