import type { Page } from '@playwright/test';
import path from 'node:path';
import {
  chooseRowAction,
  isoDate,
  makeDocx,
  makePdf,
  signInNewOrganization,
  type SignedInMember,
} from './support/documents.ts';
import { expectFitsScreen, PHONE } from './support/mobile.ts';
import { expect, test } from './support/test.ts';

// Issue 25 in Chromium, on a desktop (1366 px) and a phone (375 px): a new version of a Word
// file from its row and from its preview keeps the earlier one; the name opens the preview and
// wraps; a row's actions are one menu; the Status column is not an "all is well" mark beside an
// overdue date; search snippets show the word found; documents are e-mailed from the list and
// its bulk bar. Screenshots of each land in test-results/documents-office/.

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const LONG_NAME =
  'Safeguarding policy for children and vulnerable adults, adopted by the church council.pdf';

/** Stores `buffer` and adds its document row, as an upload does. */
async function seedDocument(
  member: SignedInMember,
  document: { name: string; category: 'HR' | 'Legal'; expiry_date?: string | null },
  buffer: Buffer,
  contentType: string,
): Promise<string> {
  const extension = path.extname(document.name);
  const filePath = `documents/${member.organizationId}/${Date.now()}-${Math.random().toString(36).slice(2)}${extension}`;
  const stored = await member.api.storage
    .from('documents')
    .upload(filePath, buffer, { contentType });
  if (stored.error) throw stored.error;
  const inserted = await member.api
    .from('documents')
    .insert({
      ...document,
      organization_id: member.organizationId,
      size: buffer.length,
      file_path: filePath,
      status: 'Active',
    })
    .select('id')
    .single();
  if (inserted.error) throw inserted.error;
  return inserted.data.id;
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({
    path: test.info().outputPath(`${name}.png`),
    fullPage: false,
    animations: 'disabled',
  });
}

for (const [label, viewport] of [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', PHONE],
] as const) {
  test.describe(`documents list on a ${label} (${viewport.width} px)`, () => {
    // The phone is touched, not clicked.
    test.use({ viewport, hasTouch: label === 'phone' });

    test('a new version of a Word file, from the row and from the preview, keeps the earlier one', async ({
      page,
      baseURL,
    }) => {
      const member = await signInNewOrganization(page, baseURL!);
      const id = await seedDocument(
        member,
        { name: 'Volunteer Handbook.docx', category: 'HR' },
        makeDocx('Handbook 2025'),
        DOCX,
      );
      await page.goto('/documents');
      await expect(
        page.getByRole('button', { name: 'Volunteer Handbook.docx', exact: true }),
      ).toBeVisible();

      // From the row: no expiry date, so no Renew, but a new version all the same.
      await page
        .getByRole('button', { name: 'Actions for Volunteer Handbook.docx', exact: true })
        .click();
      await expect(page.getByRole('menuitem', { name: 'Renew' })).toHaveCount(0);
      await screenshot(page, `${label}-row-menu`);
      await page.getByRole('menuitem', { name: 'Upload new version' }).click();
      let dialog = page.getByRole('dialog', { name: /Upload new version/ });
      await dialog.getByLabel(/New file/).setInputFiles({
        name: 'Volunteer Handbook (edited).docx',
        mimeType: DOCX,
        buffer: makeDocx('Handbook 2026'),
      });
      await expectFitsScreen(page, 'new version dialog');
      await screenshot(page, `${label}-new-version-dialog`);
      await dialog.getByRole('button', { name: 'Upload new version' }).click();
      await expect(
        page.getByText('A new version of Volunteer Handbook.docx was uploaded.'),
      ).toBeVisible();
      await expect(dialog).toBeHidden();

      // From the preview, which the name opens: Versions lists the first file.
      await page.getByRole('button', { name: 'Volunteer Handbook.docx', exact: true }).click();
      dialog = page.getByRole('dialog', { name: /Volunteer Handbook\.docx/ });
      // The header's buttons do not move when the preview arrives: the frame keeps its size.
      const newVersion = dialog.getByRole('button', { name: 'New version' });
      const whileLoading = await newVersion.boundingBox();
      await expect(dialog.getByTestId('preview-office')).toBeVisible();
      expect(await newVersion.boundingBox()).toEqual(whileLoading);
      await newVersion.click();
      await dialog.getByLabel(/New file/).setInputFiles({
        name: 'handbook-final.docx',
        mimeType: DOCX,
        buffer: makeDocx('Handbook 2026, final'),
      });
      await dialog.getByRole('button', { name: 'Upload new version' }).click();
      await expect(dialog.getByRole('button', { name: 'New version' })).toBeVisible();
      await dialog.getByRole('tab', { name: 'Versions' }).click();
      const versions = dialog.getByRole('region', { name: 'Earlier versions' });
      await expect(versions).toContainText('Version 2: Volunteer Handbook.docx');
      await expect(versions).toContainText('Version 1: Volunteer Handbook.docx');
      await expectFitsScreen(page, 'versions after a new version');
      // The header's buttons leave the name room to be read: on a phone they are icons.
      if (label === 'phone') {
        const title = (await dialog.getByRole('heading').first().boundingBox())!;
        expect(title.width).toBeGreaterThan(viewport.width / 2);
      }
      await screenshot(page, `${label}-preview-versions`);

      const { data } = await member.api
        .from('document_versions')
        .select('version_number, change')
        .eq('document_id', id)
        .order('version_number');
      expect(data).toEqual([
        { version_number: 1, change: 'file_replacement' },
        { version_number: 2, change: 'file_replacement' },
      ]);
    });

    test('the list: a wrapped name opens the preview, one actions menu, an honest status, e-mail from the list', async ({
      page,
      baseURL,
    }) => {
      const member = await signInNewOrganization(page, baseURL!);
      await seedDocument(
        member,
        { name: LONG_NAME, category: 'Legal', expiry_date: isoDate(-30) },
        makePdf('Safeguarding policy'),
        'application/pdf',
      );
      await seedDocument(
        member,
        { name: 'Hall lease.pdf', category: 'Legal', expiry_date: isoDate(300) },
        makePdf('Hall lease'),
        'application/pdf',
      );
      await page.goto('/documents');
      const name = page.getByRole('button', { name: LONG_NAME, exact: true });
      await expect(name).toBeVisible();
      // Wrapped to two lines, not cut after a few characters.
      const box = (await name.boundingBox())!;
      const lineHeight = await name.evaluate((element) =>
        parseFloat(getComputedStyle(element).lineHeight),
      );
      expect(box.height).toBeGreaterThan(lineHeight * 1.5);
      expect(box.height).toBeLessThan(lineHeight * 2.5);

      // Overdue: Active keeps its word but is not the green check mark; the lease is.
      const overdueRow = page.getByRole('row').filter({ has: name });
      if (label === 'desktop') {
        await expect(overdueRow.getByText('Active', { exact: true })).toHaveAttribute(
          'data-status-mark',
          'plain',
        );
        await expect(
          page
            .getByRole('row')
            .filter({ hasText: 'Hall lease.pdf' })
            .getByText('Active', { exact: true }),
        ).toHaveAttribute('data-status-mark', 'shown');
      }
      await expect(overdueRow).toContainText('Overdue');
      await expectFitsScreen(page, 'documents list');
      await screenshot(page, `${label}-list`);

      // One actions menu per row, each item at least 44 px tall on a phone.
      await page.getByRole('button', { name: `Actions for ${LONG_NAME}`, exact: true }).click();
      const items = page.getByRole('menuitem');
      await expect(items.first()).toBeVisible();
      if (label === 'phone') {
        for (const item of await items.all()) {
          expect((await item.boundingBox())!.height).toBeGreaterThanOrEqual(44);
        }
      }
      await screenshot(page, `${label}-actions-menu`);
      await page.keyboard.press('Escape');

      // Tapping or clicking the name opens the preview.
      if (label === 'phone') await name.tap();
      else await name.click();
      const preview = page.getByRole('dialog', { name: /Safeguarding policy/ });
      await expect(preview.getByTestId('preview-media')).toBeVisible();
      await screenshot(page, `${label}-preview`);
      await preview.getByRole('button', { name: 'Close', exact: true }).click();

      // E-mail from a row, and every document of the page from the bulk bar.
      await chooseRowAction(page, 'Hall lease.pdf', 'Email');
      let email = page.getByRole('dialog', { name: 'Email Documents' });
      await expect(email.getByRole('region', { name: 'Attachments' })).toContainText(
        'Hall lease.pdf',
      );
      await email.getByRole('button', { name: 'Cancel' }).click();
      if (label === 'desktop') {
        await page.getByRole('checkbox', { name: 'Select all documents on this page' }).check();
        const bar = page.getByRole('region', { name: 'Selected documents' });
        await expect(bar).toContainText('2 documents selected');
        await screenshot(page, `${label}-bulk-bar`);
        await bar.getByRole('button', { name: 'Email Selected' }).click();
        email = page.getByRole('dialog', { name: 'Email Documents' });
        await expect(
          email.getByRole('region', { name: 'Attachments' }).getByRole('listitem'),
        ).toHaveCount(2);
        await email.getByRole('button', { name: 'Cancel' }).click();
      }
    });

    test('a search snippet shows the word that matched', async ({ page, baseURL }) => {
      const member = await signInNewOrganization(page, baseURL!);
      const words =
        'The parish council met on Tuesday evening in the church hall to discuss the roof repairs, the heating bills, the new hymn books and the summer fete; after a long debate the treasurer reported that the insurance for the youth camp at Lakeside was renewed.';
      const id = await seedDocument(
        member,
        { name: 'Council minutes.docx', category: 'Legal' },
        makeDocx(words),
        DOCX,
      );
      await expect
        .poll(
          async () =>
            (
              await member.api
                .from('document_texts')
                .select('state')
                .eq('document_id', id)
                .maybeSingle()
            ).data?.state,
          { timeout: 30_000 },
        )
        .toBe('ready');
      await page.goto('/documents');
      await expect(page.getByText('Search names, tags and the words inside files')).toBeVisible();
      await page.getByLabel('Search documents').fill('lakeside');
      const snippet = page.getByTestId('search-snippet');
      await expect(snippet).toBeVisible();
      const mark = snippet.locator('mark').first();
      await expect(mark).toHaveText(/Lakeside/i);
      // The highlighted word lies within the snippet's visible box (two lines at most).
      const outer = (await snippet.boundingBox())!;
      const word = (await mark.boundingBox())!;
      expect(word.y).toBeGreaterThanOrEqual(outer.y - 1);
      expect(word.y + word.height).toBeLessThanOrEqual(outer.y + outer.height + 1);
      expect(word.x + word.width).toBeLessThanOrEqual(outer.x + outer.width + 1);
      await screenshot(page, `${label}-search-snippet`);
    });
  });
}
