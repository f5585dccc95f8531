import { readFile } from 'node:fs/promises';
import { chooseRowAction, isoDate, makePdf, signInNewOrganization } from './support/documents.ts';
import { expect, test } from './support/test.ts';

// Renewals in Chromium (issue 14): an overdue certificate reads as overdue in the list, the
// dashboard's counter opens the filtered list, Renew replaces the file and keeps the old one as
// a version, and the day's reminder digest appears in the Outbox with a link that opens the
// document. The e2e server has no SMTP (so mail stays in the Outbox) and looks for reminder
// runs every 2 seconds.

test('an overdue certificate is renewed, and the reminder digest links back to the documents', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const member = await signInNewOrganization(page, baseURL!);
  const { api, organizationId } = member;
  // Reminders at hour 0 UTC: the organisation's run is due as soon as it has documents.
  const settings = await api
    .from('reminder_settings')
    .upsert({ organization_id: organizationId, send_hour: 0, time_zone: 'UTC' });
  expect(settings.error).toBeNull();

  const original = makePdf('Safeguarding certificate 2024');
  const stored = `documents/${organizationId}/${Date.now()}-certificate.pdf`;
  const upload = await api.storage
    .from('documents')
    .upload(stored, original, { contentType: 'application/pdf' });
  expect(upload.error).toBeNull();
  const inserted = await api
    .from('documents')
    .insert([
      {
        organization_id: organizationId,
        name: 'Safeguarding certificate.pdf',
        category: 'HR',
        file_path: stored,
        size: original.length,
        expiry_date: isoDate(-60),
      },
      {
        organization_id: organizationId,
        name: 'Hall insurance.pdf',
        category: 'Legal',
        file_path: `documents/${organizationId}/${Date.now()}-insurance.pdf`,
        size: 10,
        expiry_date: isoDate(5),
      },
      {
        organization_id: organizationId,
        name: 'Lease.pdf',
        category: 'Legal',
        file_path: `documents/${organizationId}/${Date.now()}-lease.pdf`,
        size: 10,
        expiry_date: isoDate(200),
      },
    ])
    .select('id, name');
  expect(inserted.error).toBeNull();
  const insurance = inserted.data!.find((d) => d.name === 'Hall insurance.pdf')!;

  // The list: the overdue certificate says so, next to the unchanged Status column.
  await page.goto('/documents');
  const certificate = page.getByRole('row').filter({ hasText: 'Safeguarding certificate.pdf' });
  await expect(certificate).toContainText('Overdue');
  await expect(certificate).toContainText('Active');

  // The dashboard's Overdue counter opens the list filtered to overdue documents.
  await page.goto('/');
  await page.getByRole('link', { name: /Overdue/ }).click();
  await expect(page).toHaveURL(/\/documents\?expiry=overdue$/);
  await expect(
    page.getByRole('row').filter({ hasText: 'Safeguarding certificate.pdf' }),
  ).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Hall insurance.pdf' })).toHaveCount(0);

  // Renew: a new file and date in one dialog; the old file stays as version 1.
  await page.goto('/documents');
  await chooseRowAction(page, 'Safeguarding certificate.pdf', 'Renew');
  let dialog = page.getByRole('dialog', { name: /Renew/ });
  await dialog.getByLabel(/New file/).setInputFiles({
    name: 'certificate-2026.pdf',
    mimeType: 'application/pdf',
    buffer: makePdf('Safeguarding certificate 2026'),
  });
  await dialog.getByLabel(/New expiry date/).fill(isoDate(365));
  await dialog.getByRole('button', { name: 'Renew' }).click();
  await expect(dialog).toBeHidden();
  await expect(certificate).not.toContainText('Overdue');
  await chooseRowAction(page, 'Safeguarding certificate.pdf', 'Renew');
  dialog = page.getByRole('dialog', { name: /Renew/ });
  const versions = dialog.getByRole('region', { name: 'Earlier versions' });
  await expect(versions).toContainText('Version 1: Safeguarding certificate.pdf');
  const downloading = page.waitForEvent('download');
  await versions
    .getByRole('button', { name: 'Download version 1 of Safeguarding certificate.pdf' })
    .click();
  const download = await downloading;
  expect(await readFile((await download.path())!)).toEqual(original);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The day's digest, kept in the Outbox (no SMTP), links to the document it reminds of.
  await page.goto('/outbox');
  const digest = page.getByRole('button', { name: /Renewals at/ });
  await expect(async () => {
    await page.reload();
    await expect(digest).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByText('In the Outbox (not sent)').first()).toBeVisible();
  await digest.click();
  const body = page.locator('pre');
  await expect(body).toContainText('Hall insurance.pdf');
  const link = `${baseURL}/documents?document=${insurance.id}`;
  await expect(body).toContainText(link);
  await page.goto(link);
  await expect(page.getByRole('dialog')).toContainText('Hall insurance.pdf');
});
