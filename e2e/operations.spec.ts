import AxeBuilder from '@axe-core/playwright';
import {
  addMember,
  createOrganization,
  localDate,
  seedDocuments,
  signIn,
  statValue,
  type Organization,
  type Person,
} from './support/operations.ts';
import { expect, test } from './support/test.ts';

const MB = 1024 * 1024;
const stamp = Date.now().toString(36);
const integrationName = `Church Wi-Fi ${stamp}`;
const contactName = `Pat Router ${stamp}`;
const entityName = `Grace Community Church ${stamp}`;

test.describe.configure({ mode: 'serial' });

let organization: Organization;
let member: Person;
let outsider: Person;

test.beforeAll(async ({ baseURL }) => {
  organization = await createOrganization(baseURL!, 'Grace');
  member = await addMember(baseURL!, organization, 'user');
  const other = await createOrganization(baseURL!, 'Hope');
  outsider = await addMember(baseURL!, other, 'user');
});

test('a master admin adds a custom integration with a contact and edits the corporate status', async ({
  page,
}) => {
  await signIn(page, organization.masterAdmin, '/operations/it');
  await expect(page.getByRole('heading', { name: 'IT & Technology', level: 1 })).toBeVisible();
  await expect(statValue(page, 'Available Tools')).toHaveText('3');

  await page.getByRole('button', { name: 'Add Integration' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Integration' });
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue('New Integration');
  await expect(dialog.getByLabel('Description')).toHaveValue(
    'Custom integration for your organization',
  );
  await expect(dialog.getByLabel('Category')).toHaveValue('Custom');
  await dialog.getByLabel('Name', { exact: true }).fill(integrationName);
  await dialog.getByLabel('Website URL').fill('ftp://wifi.grace.example');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(
    dialog.getByText('Please enter a valid web address starting with http:// or https://.'),
  ).toBeVisible();
  await dialog.getByLabel('Website URL').fill('https://wifi.grace.example/admin');
  await dialog.getByLabel('Category').selectOption('Internal');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();

  const card = page.getByRole('article', { name: integrationName });
  await expect(
    card.getByRole('link', { name: new RegExp(`^Open ${integrationName}`) }),
  ).toHaveAttribute('href', 'https://wifi.grace.example/admin');
  await expect(statValue(page, 'Available Tools')).toHaveText('4');

  await card.getByRole('button', { name: 'Add Contact' }).click();
  const contact = page.getByRole('dialog', { name: `${integrationName} Contact` });
  await contact.getByLabel('Name', { exact: true }).fill(contactName);
  await contact.getByLabel('Email', { exact: true }).fill('pat@wifi.grace.example');
  await contact.getByLabel('Department/Team').fill('Facilities');
  await contact.getByRole('button', { name: 'Save Contact' }).click();
  await expect(contact).toBeHidden();
  await expect(card.getByRole('button', { name: `Contact: ${contactName}` })).toBeVisible();
  await expect(statValue(page, 'Active Contacts')).toHaveText('1');

  await page.goto('/operations/legal');
  const panel = page.locator('section', {
    has: page.getByRole('heading', { name: 'Corporate Status Dashboard' }),
  });
  await panel.getByRole('button', { name: 'Edit Status' }).click();
  await panel.getByLabel('Entity Name').fill(entityName);
  await panel.getByLabel('Entity Type').selectOption('Non-Profit Corporation');
  await panel.getByLabel('Status', { exact: true }).selectOption('Active');
  await panel.getByLabel('Annual Report Status').selectOption('Overdue');
  await panel.getByLabel('Next Due Date').fill(localDate(-3));
  await panel.getByRole('button', { name: 'Save Status' }).click();
  await expect(panel.getByRole('alert')).toContainText('Filing Overdue!');
  await expect(panel.getByText(entityName)).toBeVisible();
});

test('an ordinary member of the same organisation sees both in another browser context', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, member, '/operations/it');
  const card = page.getByRole('article', { name: integrationName });
  await expect(card).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Integration' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: `Edit ${integrationName}` })).toHaveCount(0);
  await card.getByRole('button', { name: `Contact: ${contactName}` }).click();
  const contact = page.getByRole('dialog', { name: `${integrationName} Contact` });
  await expect(contact).toContainText('Facilities');
  await expect(contact.getByRole('button', { name: 'Edit Contact' })).toHaveCount(0);
  await contact.getByRole('button', { name: 'Done' }).click();
  await expect(statValue(page, 'Active Contacts')).toHaveText('1');

  await page.goto('/operations/legal');
  const panel = page.locator('section', {
    has: page.getByRole('heading', { name: 'Corporate Status Dashboard' }),
  });
  await expect(panel.getByText(entityName)).toBeVisible();
  await expect(panel.getByRole('alert')).toContainText('Filing Overdue!');
  await expect(panel.getByRole('button', { name: 'Edit Status' })).toHaveCount(0);
  await context.close();
});

test('a member of another organisation sees neither', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, outsider, '/operations/it');
  await expect(page.getByRole('article', { name: 'Google Workspace' })).toBeVisible();
  await expect(page.getByRole('article', { name: integrationName })).toHaveCount(0);
  await expect(statValue(page, 'Available Tools')).toHaveText('3');
  await expect(statValue(page, 'Active Contacts')).toHaveText('0');

  await page.goto('/operations/legal');
  const panel = page.locator('section', {
    has: page.getByRole('heading', { name: 'Corporate Status Dashboard' }),
  });
  await expect(panel.getByText('Last Updated')).toBeVisible();
  await expect(panel.getByText(entityName)).toHaveCount(0);
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await context.close();
});

test('a member selects two documents on a category page and e-mails them, warned about the size', async ({
  browser,
}) => {
  await seedDocuments(organization, member, [
    { name: `Budget ${stamp}.xlsx`, category: 'Accounting', size: 18 * MB },
    { name: `Audit ${stamp}.pdf`, category: 'Other', size: 9 * MB, tags: ['accounting'] },
    { name: `Unrelated ${stamp}.pdf`, category: 'Other', size: 1 * MB },
  ]);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, member, '/operations/accounting');

  const list = page.getByRole('list', { name: 'Accounting Documents' });
  await expect(list.getByRole('checkbox')).toHaveCount(2);
  await expect(page.getByText(`Unrelated ${stamp}.pdf`)).toHaveCount(0);
  await page.getByRole('checkbox', { name: `Select Budget ${stamp}.xlsx` }).check();
  await page.getByRole('checkbox', { name: `Select Audit ${stamp}.pdf` }).check();
  await page.getByRole('button', { name: 'Email Selected (2)' }).click();

  const dialog = page.getByRole('dialog', { name: 'Email Documents' });
  await expect(dialog.getByRole('region', { name: 'Attachments' })).toContainText(
    `Budget ${stamp}.xlsx`,
  );
  await expect(dialog.getByRole('region', { name: 'Attachments' })).toContainText(
    `Audit ${stamp}.pdf`,
  );
  await expect(dialog.getByText(/which is more than 25MB/)).toBeVisible();
  const send = dialog.getByRole('button', { name: 'Send Email' });
  await expect(send).toBeDisabled();
  await dialog
    .getByLabel('To', { exact: true })
    .fill('treasurer@grace.example, auditor@cpa.example');
  await dialog.getByLabel('Subject').fill('Year-end accounts');
  // Recorded at once on the server (there is no simulated wait any more), so the busy label
  // may pass too quickly to see; the component test watches it.
  await send.click();
  // A passing notice (a toast), with nothing to press.
  const notice = page.getByRole('log', { name: 'Notifications' });
  // No SMTP server is set up for the e2e server: kept in the Outbox, and the notice says so.
  await expect(notice).toContainText(
    'Email kept in the Outbox: e-mail is not set up on this installation, so it was not sent.',
  );
  await expect(dialog).toBeHidden();
  await context.close();
});

test('the operations, category and department pages pass an accessibility scan, also at 375 px', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  await signIn(page, organization.masterAdmin, '/operations');
  for (const path of [
    '/operations',
    '/operations/legal',
    '/operations/accounting',
    '/department/worship',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
    const { violations } = await new AxeBuilder({ page }).include('main').analyze();
    expect(violations.map(({ id, nodes }) => `${path}: ${id} (${nodes.length})`)).toEqual([]);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
  }
  await context.close();
});
