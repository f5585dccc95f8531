import type { Page } from '@playwright/test';
import { apiClient, uniqueEmail } from './support/api.ts';
import {
  chooseRowAction,
  signInNewOrganization,
  type SignedInMember,
} from './support/documents.ts';
import { signIn } from './support/oauth.ts';
import { PASSWORD } from './support/team.ts';
import { expect, test } from './support/test.ts';

// Issue 23 in Chromium: an admin restricts HR to the group "Staff" (view) and "Finance team"
// (edit); a volunteer neither sees nor finds by a word inside it a payroll file, and her
// dashboard counts what she sees; a Staff member previews it and its history shows that she
// looked; a Viewer cannot upload.

const stamp = Date.now().toString(36);
// A word found only inside the payroll file.
const INNER_WORD = `quillwort${stamp}`;
const payroll = {
  name: `payroll-${stamp}.txt`,
  mimeType: 'text/plain',
  buffer: Buffer.from(`Payroll for November\nSalaries ${INNER_WORD} confidential\n`),
};
const rota = {
  name: `rota-${stamp}.txt`,
  mimeType: 'text/plain',
  buffer: Buffer.from('Volunteer rota for Advent\n'),
};

type Api = SignedInMember['api'];

/** A member of the master admin's organisation with `role`, joined through an invitation. */
async function invited(
  baseURL: string,
  masterAdmin: Api,
  role: 'user' | 'admin' | 'viewer',
  fullName: string,
) {
  const email = uniqueEmail(role);
  const invite = await masterAdmin.rpc('invite_user', { email, role, full_name: fullName });
  if (invite.error) throw new Error(invite.error.message);
  const { token } = invite.data as unknown as { token: string };
  const api = await apiClient(baseURL);
  const signUp = await api.auth.signUp({
    email,
    password: PASSWORD,
    options: { data: { invitation_token: token } },
  });
  if (signUp.error) throw signUp.error;
  const accepted = await api.rpc('accept_invitation', { token });
  if (accepted.error) throw new Error(accepted.error.message);
  const { data } = await api.auth.getUser();
  return { email, api, id: data.user!.id, fullName };
}

async function upload(page: Page, file: typeof payroll, category: string) {
  await page.goto('/upload');
  await page.getByLabel('Choose files to upload').setInputFiles(file);
  await page.getByLabel('Category').selectOption(category);
  await page.getByRole('button', { name: 'Upload Documents' }).click();
  await expect(page).toHaveURL(/\/documents$/);
}

/** The dashboard's counter of `label`, as a number. */
async function counter(page: Page, label: string): Promise<number> {
  const value = await page
    .getByText(label, { exact: true })
    .locator('xpath=following-sibling::*[1]')
    .textContent();
  return Number((value ?? '').replace(/\D/g, ''));
}

test('a restricted HR stays with Staff and the Finance team', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const admin = await signInNewOrganization(page, baseURL!);
  const anna = await invited(baseURL!, admin.api, 'user', 'Anna Staff');
  const felix = await invited(baseURL!, admin.api, 'user', 'Felix Finance');
  const vera = await invited(baseURL!, admin.api, 'user', 'Vera Volunteer');
  const victor = await invited(baseURL!, admin.api, 'viewer', 'Victor Viewer');

  await test.step('the master admin makes the groups Staff and Finance team', async () => {
    await page.goto('/categories');
    await page.getByRole('tab', { name: 'Groups' }).click();
    for (const [group, member] of [
      ['Staff', anna],
      ['Finance team', felix],
    ] as const) {
      await page.getByRole('textbox', { name: 'New group' }).fill(group);
      await page.getByRole('button', { name: 'Add Group' }).click();
      await page.getByRole('button', { name: `Members of ${group}` }).click();
      const dialog = page.getByRole('dialog', { name: `Members of ${group}` });
      await dialog.getByRole('checkbox', { name: member.fullName }).check();
      await dialog.getByRole('button', { name: 'Save Members' }).click();
      await expect(dialog).toBeHidden();
    }
  });

  await test.step('and restricts HR to Staff (view) and Finance team (edit)', async () => {
    await page.getByRole('tab', { name: 'Categories' }).click();
    await page.getByRole('button', { name: 'Access to HR' }).click();
    const dialog = page.getByRole('dialog', { name: 'Access to HR' });
    await dialog.getByRole('radio', { name: /Restricted/ }).check();
    await dialog.getByRole('combobox', { name: 'Access of Staff' }).selectOption('view');
    await dialog.getByRole('combobox', { name: 'Access of Finance team' }).selectOption('edit');
    await dialog.getByRole('button', { name: 'Save Access' }).click();
    await expect(dialog).toBeHidden();
    const hr = page.getByRole('list', { name: 'Categories' }).getByRole('listitem').first();
    await expect(hr).toContainText('Restricted: Finance team (edit), Staff (view)');
    await expect(hr.getByRole('img', { name: 'Restricted' })).toBeVisible();
  });

  await test.step('the payroll file goes into HR, a rota into Other', async () => {
    await upload(page, payroll, 'HR');
    await upload(page, rota, 'Other');
    await expect(
      page.getByRole('row').filter({ hasText: payroll.name }).getByRole('img', {
        name: 'Restricted',
      }),
    ).toBeVisible();
    // Its text is read in the background: the master admin finds it by the inner word.
    await expect
      .poll(
        async () => {
          const { data } = await admin.api.rpc('search_documents', { search: INNER_WORD });
          return ((data ?? []) as unknown[]).length;
        },
        { timeout: 60_000 },
      )
      .toBe(1);
  });

  await test.step('a volunteer neither sees nor finds it, and her dashboard agrees', async () => {
    const context = await browser.newContext();
    const volunteer = await context.newPage();
    await signIn(volunteer, baseURL!, vera.email, PASSWORD);
    await volunteer.goto('/documents');
    await expect(volunteer.getByRole('row').filter({ hasText: rota.name })).toBeVisible();
    await expect(volunteer.getByText(payroll.name)).toHaveCount(0);
    await expect(
      volunteer.getByRole('combobox', { name: 'Filter by category' }).locator('option', {
        hasText: 'HR',
      }),
    ).toHaveCount(0);
    await volunteer.getByRole('searchbox', { name: 'Search documents' }).fill(INNER_WORD);
    await expect(volunteer.locator(`[data-applied-search="${INNER_WORD}"]`)).toBeVisible();
    await expect(volunteer.getByText(payroll.name)).toHaveCount(0);
    await expect(volunteer.getByText('No documents match your search.')).toBeVisible();

    await volunteer.goto('/');
    await expect.poll(() => counter(volunteer, 'Total Documents')).toBe(1);
    await expect.poll(() => counter(volunteer, 'Categories')).toBe(1);
    await context.close();
  });

  await test.step('a Staff member previews it, and its history shows that she looked', async () => {
    const context = await browser.newContext();
    const staff = await context.newPage();
    await signIn(staff, baseURL!, anna.email, PASSWORD);
    await staff.goto('/documents');
    const row = staff.getByRole('row').filter({ hasText: payroll.name });
    await expect(row.getByRole('img', { name: 'Restricted' })).toBeVisible();
    // Staff may view HR, not change it: the row's menu offers no Delete.
    await row.getByRole('button', { name: `Actions for ${payroll.name}`, exact: true }).click();
    await expect(staff.getByRole('menuitem', { name: 'Download', exact: true })).toBeVisible();
    await expect(staff.getByRole('menuitem', { name: 'Delete', exact: true })).toHaveCount(0);
    await staff.getByRole('menuitem', { name: 'View', exact: true }).click();
    const preview = staff.getByRole('dialog', { name: new RegExp(payroll.name) });
    await expect(preview.getByText('Payroll for November')).toBeVisible();
    await expect(preview.getByRole('img', { name: 'Restricted' })).toBeVisible();
    await context.close();

    // Those who may edit it read who looked: the Finance team's Felix.
    const finance = await browser.newContext();
    const felixPage = await finance.newPage();
    await signIn(felixPage, baseURL!, felix.email, PASSWORD);
    await felixPage.goto('/documents');
    await chooseRowAction(felixPage, payroll.name, 'View');
    const dialog = felixPage.getByRole('dialog', { name: new RegExp(payroll.name) });
    await dialog.getByRole('tab', { name: 'History' }).click();
    await expect(dialog.getByText('Viewed by Anna Staff')).toBeVisible();
    await finance.close();
  });

  await test.step('a Viewer cannot upload', async () => {
    const context = await browser.newContext();
    const viewer = await context.newPage();
    await signIn(viewer, baseURL!, victor.email, PASSWORD);
    await viewer.goto('/documents');
    await expect(viewer.getByRole('row').filter({ hasText: rota.name })).toBeVisible();
    await expect(viewer.getByRole('link', { name: 'Upload Documents' })).toHaveCount(0);
    await viewer.goto('/upload');
    await expect(
      viewer.getByText(/Viewers can see and download documents but cannot upload them/),
    ).toBeVisible();
    // And the database refuses it as well.
    const refused = await victor.api.from('documents').insert({
      name: 'sneaky.txt',
      category: 'Other',
      file_path: `documents/${admin.organizationId}/sneaky.txt`,
      organization_id: admin.organizationId,
      size: 1,
    });
    expect(refused.error).not.toBeNull();
    await context.close();
  });
});
