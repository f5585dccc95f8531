import type { Page } from '@playwright/test';
import { settled, signedInContext } from './support/a11y.ts';
import { expectFitsScreen, PHONE, saveScreenshot } from './support/mobile.ts';
import { createOrganization, type Organization } from './support/operations.ts';
import sharp from 'sharp';
import { startSmtpServer } from '../tests/support/smtp.ts';
import { expect, test } from './support/test.ts';

// Issue 24: the bar fits at 1366 px with the user's name readable, the pages beyond the
// specification in a labelled More menu, and a Settings page where a church renames itself,
// picks its time zone and shapes its departments; at 1366 and 375 px, with screenshots in
// test-results/mobile/.

const DESKTOP = { width: 1366, height: 800 };
const FULL_NAME = 'Margaret Thompson-Williams';

let organization: Organization;

test.beforeAll(async ({ baseURL }) => {
  organization = await createOrganization(baseURL!, 'Settings');
  const { error } = await organization.masterAdmin.api.auth.getUser();
  expect(error).toBeNull();
  const { data } = await organization.masterAdmin.api.auth.getUser();
  const saved = await organization.masterAdmin.api
    .from('user_profiles')
    .update({ full_name: FULL_NAME })
    .eq('id', data.user!.id);
  expect(saved.error).toBeNull();
});

/** The element shows all of its text: nothing is cut off by an ellipsis. */
async function expectWhole(page: Page, text: string) {
  const element = page.getByRole('navigation', { name: 'Main' }).getByText(text, { exact: true });
  await expect(element).toBeVisible();
  const cut = await element.evaluate((node) => node.scrollWidth > node.clientWidth + 1);
  expect(cut, `${text} is shown whole`).toBe(false);
}

test('at 1366 px the bar fits: the name is readable, the other pages are in More', async ({
  browser,
  baseURL,
}) => {
  const context = await signedInContext(browser, baseURL!, organization.masterAdmin, DESKTOP);
  const page = await context.newPage();
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByText('Master Admin')).toBeVisible();
  await expectWhole(page, FULL_NAME);
  for (const name of ['Dashboard', 'Documents', 'Upload', 'Operations', 'Users', 'OAuth']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(nav.getByRole('button', { name: 'Edit profile' })).toHaveText('Profile');
  await expectFitsScreen(page, 'bar at 1366 px');
  await saveScreenshot(page, 'bar at 1366 px', false);

  await nav.getByRole('button', { name: 'More' }).click();
  for (const name of ['Reminders', 'Trash', 'Outbox', 'Activity']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await saveScreenshot(page, 'more menu at 1366 px', false);
  await nav.getByRole('link', { name: 'Settings', exact: true }).click();
  await settled(page, 'Settings');

  // Renaming the organisation shows the new name in the bar.
  const section = page.getByRole('region', { name: 'Organization' });
  await section.getByLabel('Organization name').fill('Grace Community Church');
  await section.getByLabel('Time zone').fill('America/Chicago');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByRole('status')).toHaveText('Saved.');
  await expect(nav.getByText('Grace Community Church')).toBeVisible();
  await expectWhole(page, FULL_NAME);
  const zone = await organization.masterAdmin.api
    .from('reminder_settings')
    .select('time_zone')
    .eq('organization_id', organization.id)
    .single();
  expect(zone.data).toEqual({ time_zone: 'America/Chicago' });

  // With no SMTP, the page says nothing is sent.
  await expect(page.getByRole('region', { name: 'E-mail' })).toContainText(
    'E-mail is not set up: nothing is sent.',
  );
  await expectFitsScreen(page, 'settings at 1366 px');
  await saveScreenshot(page, 'settings at 1366 px');
  await context.close();
});

test('at 375 px the menu holds the More pages and Settings fits the phone', async ({
  browser,
  baseURL,
}) => {
  const context = await signedInContext(browser, baseURL!, organization.masterAdmin, PHONE);
  const page = await context.newPage();
  await page.goto('/settings');
  await settled(page, 'Settings');
  await expectFitsScreen(page, 'settings at 375 px');
  await saveScreenshot(page, 'settings at 375 px');

  // A department renamed here keeps its address.
  const departments = page.getByRole('list', { name: 'Departments' });
  await departments.getByRole('button', { name: 'Edit Worship' }).click();
  const form = departments.getByRole('form', { name: 'Edit Worship' });
  await form.getByLabel('Name').fill('Worship & Arts');
  // The page is fed by the organisation's own categories, ticked from its list (issue 23).
  await form
    .getByRole('group', { name: 'Categories' })
    .getByRole('checkbox', { name: 'Communications' })
    .check();
  await expectFitsScreen(page, 'department form at 375 px');
  await saveScreenshot(page, 'department form at 375 px');
  await form.getByRole('button', { name: 'Save department' }).click();
  await expect(departments.getByText('Worship & Arts', { exact: true })).toBeVisible();
  await expect(
    departments.getByRole('listitem').filter({ hasText: 'Worship & Arts' }),
  ).toContainText('/department/worship');

  // The dashboard's tile and the page at the same address carry the new name.
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Worship & Arts' })).toHaveAttribute(
    'href',
    '/department/worship',
  );
  await page.goto('/department/worship');
  await settled(page, 'Worship & Arts');
  await expect(
    page.getByText(/This page lists the documents of the categories Communications/),
  ).toBeVisible();
  await expectFitsScreen(page, 'renamed department at 375 px');
  await saveScreenshot(page, 'renamed department at 375 px');

  await page.getByRole('button', { name: 'Open menu' }).click();
  const more = page.getByRole('list', { name: 'More' });
  for (const name of ['Reminders', 'Trash', 'Outbox', 'Activity', 'Settings']) {
    await expect(more.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expectFitsScreen(page, 'menu at 375 px');
  await saveScreenshot(page, 'menu at 375 px', false);
  await context.close();
});

test("an organisation's own mail server: the test e-mail arrives, at 1366 and 375 px", async ({
  browser,
  baseURL,
}) => {
  const smtp = await startSmtpServer();
  const church = await createOrganization(baseURL!, 'Sender');
  try {
    const context = await signedInContext(browser, baseURL!, church.masterAdmin, DESKTOP);
    const page = await context.newPage();
    await page.goto('/settings');
    await settled(page, 'Settings');
    const email = page.getByRole('region', { name: 'E-mail' });
    await expect(email).toContainText('E-mail is not set up: nothing is sent.');
    await expect(email.getByRole('button', { name: 'Send a test e-mail' })).toBeDisabled();

    await email.getByLabel('SMTP server').fill('127.0.0.1');
    await email.getByLabel('Port').fill(new URL(smtp.url).port);
    await email.getByLabel('From address').fill('office@own-sender.example.org');
    await email.getByRole('button', { name: 'Save mail server' }).click();
    await expect(email).toContainText(
      'sent through your organization’s mail server, 127.0.0.1, from office@own-sender.example.org',
    );
    await email.getByRole('button', { name: 'Send a test e-mail' }).click();
    await expect(email.getByRole('status').filter({ hasText: 'test e-mail' })).toHaveText(
      `The test e-mail was sent to ${church.masterAdmin.email.toLowerCase()}. Check that inbox (and its spam folder).`,
      { timeout: 30_000 },
    );
    const received = smtp.received.find((r) =>
      r.envelope.to.includes(church.masterAdmin.email.toLowerCase()),
    );
    expect(received?.envelope.from).toBe('office@own-sender.example.org');
    expect(received?.mail.subject).toBe(`Test e-mail from ${church.name}`);
    await expectFitsScreen(page, 'e-mail settings at 1366 px');
    await email.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'e-mail settings at 1366 px');
    await context.close();

    const phone = await signedInContext(browser, baseURL!, church.masterAdmin, PHONE);
    const small = await phone.newPage();
    await small.goto('/settings');
    await settled(small, 'Settings');
    const onPhone = small.getByRole('region', { name: 'E-mail' });
    await expect(onPhone.getByLabel('SMTP server')).toHaveValue('127.0.0.1');
    await onPhone.getByRole('button', { name: 'Send a test e-mail' }).click();
    await expect(onPhone.getByRole('status').filter({ hasText: 'test e-mail' })).toContainText(
      'The test e-mail was sent to',
      { timeout: 30_000 },
    );
    expect(smtp.received.length).toBe(2);
    await expectFitsScreen(small, 'e-mail settings at 375 px');
    await saveScreenshot(small, 'e-mail settings at 375 px');
    await phone.close();
  } finally {
    await smtp.close();
  }
});

test('a PNG logo uploaded in Settings shows in the bar, at 1366 and 375 px', async ({
  browser,
  baseURL,
}) => {
  const church = await createOrganization(baseURL!, 'Logo');
  // A wide photo-sized image; the server makes it fit 512 x 512.
  const png = await sharp({
    create: { width: 1600, height: 400, channels: 3, background: '#1d4ed8' },
  })
    .png()
    .toBuffer();
  const context = await signedInContext(browser, baseURL!, church.masterAdmin, DESKTOP);
  const page = await context.newPage();
  await page.goto('/settings');
  await settled(page, 'Settings');
  await page
    .getByRole('region', { name: 'Logo' })
    .getByRole('button', { name: 'Upload custom logo' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Upload Custom Logo' });
  await dialog
    .getByLabel('Logo file')
    .setInputFiles({ name: 'church-logo.png', mimeType: 'image/png', buffer: png });
  await dialog.getByRole('button', { name: 'Upload Logo' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  const nav = page.getByRole('navigation', { name: 'Main' });
  const logo = nav.getByRole('img', { name: `${church.name} logo` });
  await expect(logo).toBeVisible();
  await expect(logo).toHaveAttribute('src', /^data:image\/png;base64,/);
  // The browser decoded what the server made: 512 x 128.
  expect(
    await logo.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]),
  ).toEqual([512, 128]);
  await expectFitsScreen(page, 'png logo at 1366 px');
  await saveScreenshot(page, 'png logo at 1366 px', false);
  await context.close();

  const phone = await signedInContext(browser, baseURL!, church.masterAdmin, PHONE);
  const small = await phone.newPage();
  await small.goto('/');
  await expect(
    small
      .getByRole('navigation', { name: 'Main' })
      .getByRole('img', { name: `${church.name} logo` }),
  ).toBeVisible();
  await expectFitsScreen(small, 'png logo at 375 px');
  await saveScreenshot(small, 'png logo at 375 px', false);
  await phone.close();
});
