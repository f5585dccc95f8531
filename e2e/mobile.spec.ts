import { expect, type Locator, type Page } from '@playwright/test';
import {
  adminPageGroups,
  adminPages,
  openDialog,
  SAMPLE_FILES,
  settled,
  signedInContext,
  test,
} from './support/a11y.ts';
import { chooseRowAction } from './support/documents.ts';
import { expectFitsScreen, expectReachable, PHONE, saveScreenshot } from './support/mobile.ts';

// Issue 8, mobile: every page and dialog at 375 px wide. The page never scrolls sideways (wide
// tables scroll inside their own box), no control is cut off, the menu works, and each page's
// main action can be reached. A screenshot of each lands in test-results/mobile/. Each test
// opens its own page on the worker's seeded world (`test` of support/a11y.ts), a few screens
// each, so that the tests run in parallel and none needs another's page.

test.describe.configure({ mode: 'parallel' });
test.use({ adminViewport: PHONE });

/** The main thing to do on each page of a master admin, which must be reachable. */
function primaryAction(target: Page, path: string): Locator | null {
  const main = target.getByRole('main');
  switch (path) {
    case '/':
    case '/documents':
      return main.getByRole('link', { name: 'Upload Documents' }).first();
    case '/upload':
      return main.getByRole('button', { name: 'Upload Documents' });
    case '/operations':
      return main.getByRole('link', { name: /^Legal/ }).first();
    case '/operations/legal':
    case '/operations/accounting':
    case '/operations/it':
      return main.getByRole('button', { name: 'Add Integration' });
    case '/department/worship':
    case '/department/elder-board':
      return main.getByRole('button', { name: 'Department Settings' });
    case '/users':
      return main.getByRole('button', { name: 'Invite User' });
    case '/oauth':
      return main.getByRole('button', { name: 'Settings for Slack' });
    case '/reminders':
      return main.getByRole('button', { name: 'Make my calendar address' });
    case '/outbox':
      // A new organisation's Outbox holds no message yet, so no action either.
      return null;
    case '/documents?expiry=soon&sort=expiry_date':
      return main.getByRole('link', { name: 'Upload Documents' }).first();
    default:
      return main
        .getByRole('link', { name: 'Return to Dashboard' })
        .or(main.getByRole('button', { name: 'Return to Dashboard' }));
  }
}

async function checkPage(target: Page, name: string) {
  await expectFitsScreen(target, name);
  await saveScreenshot(target, name);
}

async function checkDialog(target: Page, name: string) {
  const dialog = openDialog(target);
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('[role="status"]').filter({ hasText: /^Loading/ })).toHaveCount(0);
  const box = (await dialog.boundingBox())!;
  expect.soft(box.x, `${name}: dialog starts on screen`).toBeGreaterThanOrEqual(0);
  expect
    .soft(box.x + box.width, `${name}: dialog fits the width`)
    .toBeLessThanOrEqual(PHONE.width + 1);
  expect.soft(box.height, `${name}: dialog fits the height`).toBeLessThanOrEqual(PHONE.height + 1);
  await expectReachable(dialog.getByRole('button', { name: 'Close', exact: true }).first(), name);
  await expectFitsScreen(target, name);
  await saveScreenshot(target, `dialog ${name}`, false);
}

function documentRow(target: Page, name: string) {
  return target.getByRole('row').filter({ hasText: name });
}

test('signed-out screens at 375 px', async ({ browser, baseURL, world }) => {
  const context = await browser.newContext({ baseURL, viewport: PHONE });
  const visitor = await context.newPage();
  await visitor.goto('/');
  await settled(visitor, 'Sign in to Steward');
  await expectReachable(visitor.getByRole('button', { name: 'Sign in', exact: true }), 'Sign in');
  await checkPage(visitor, 'sign in');
  await visitor.getByRole('button', { name: 'Sign up' }).click();
  await settled(visitor, 'Create your account');
  await checkPage(visitor, 'sign up');

  await visitor.goto(world.invitationLink);
  await settled(visitor, /^Join /);
  await expectReachable(
    visitor.getByRole('button', { name: 'Accept Invitation & Create Account' }),
    'Accept Invitation',
  );
  await checkPage(visitor, 'invitation');
  await visitor.goto('/invite/not-a-real-token');
  await settled(visitor, 'Invalid Invitation');
  await expectReachable(visitor.getByRole('button', { name: 'Go to Login' }), 'Go to Login');
  await checkPage(visitor, 'invitation invalid');
  await context.close();
});

for (const group of adminPageGroups(5)) {
  test(`every page of a master admin at 375 px: ${group.join(', ')}`, async ({
    adminPage: page,
    world,
  }) => {
    const pages = adminPages(world.organization.name).filter(({ path }) => group.includes(path));
    for (const { path, heading } of pages) {
      await test.step(path, async () => {
        await page.goto(path);
        await settled(page, heading);
        const action = primaryAction(page, path);
        if (action) await expectReachable(action, `${path} main action`);
        await checkPage(page, path);
      });
    }
  });
}

test('the documents list fits a phone: the name, the expiry date and the actions', async ({
  adminPage: page,
}) => {
  await page.goto('/documents');
  await settled(page, 'Documents');
  const row = documentRow(page, SAMPLE_FILES.pdf.name);
  // A row's actions are one menu, each of its items a 44 px target.
  const actions = row.getByRole('button', { name: `Actions for ${SAMPLE_FILES.pdf.name}` });
  await expectReachable(actions, 'actions of a row');
  expect((await actions.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await actions.click();
  for (const action of ['View', 'Edit Properties', 'Upload new version', 'Download', 'Delete']) {
    const item = page.getByRole('menuitem', { name: action, exact: true });
    await expectReachable(item, `${action} of a row`);
    expect((await item.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  await saveScreenshot(page, 'documents row actions', false);
  await page.keyboard.press('Escape');
  // Nothing to scroll sideways: every row is laid out within the screen.
  const table = page.getByRole('table');
  const scroller = table.locator('xpath=..');
  const widths = await scroller.evaluate((element) => ({
    client: element.clientWidth,
    scroll: element.scrollWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  // The name is shown on up to two lines (cut with an ellipsis only after the second), and the
  // expiry date under it.
  const name = row.getByRole('button', { name: SAMPLE_FILES.pdf.name, exact: true });
  await expectReachable(name, 'document name');
  expect(await name.evaluate((element) => getComputedStyle(element).webkitLineClamp)).toBe('2');
  const expiry = row.getByRole('cell').filter({ hasText: /Expiry Date/ });
  await expectReachable(expiry, 'expiry date');
  await expect(expiry).toContainText(/\w{3} \d{2}, \d{4}/);
  await expectFitsScreen(page, '/documents table');
  await saveScreenshot(page, 'documents list');
});

test('the menu opens, leads to each page and closes', async ({ adminPage: page, world }) => {
  await page.goto('/');
  await settled(page, world.organization.name);
  const nav = page.getByRole('navigation', { name: 'Main' });
  // The desktop links are hidden; the menu button stands in for them.
  await expect(nav.getByRole('link', { name: 'Documents' })).toBeHidden();
  const links = ['Dashboard', 'Documents', 'Upload', 'Operations', 'Users', 'OAuth'];
  await page.getByRole('button', { name: 'Open menu' }).click();
  for (const name of links) {
    await expectReachable(page.getByRole('link', { name, exact: true }), `menu link ${name}`);
  }
  await expectReachable(page.getByRole('button', { name: 'Sign out' }), 'Sign out');
  await expectFitsScreen(page, 'menu');
  await saveScreenshot(page, 'menu open', false);

  for (const [name, url] of [
    ['Documents', /\/documents$/],
    ['Users', /\/users$/],
    ['Dashboard', /\/$/],
  ] as const) {
    if (!(await page.getByRole('link', { name, exact: true }).isVisible())) {
      await page.getByRole('button', { name: 'Open menu' }).click();
    }
    await page.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(url);
    // Following a link closes the menu.
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  }
});

test.describe('dialogs fit a phone screen', () => {
  for (const [kind, file] of Object.entries(SAMPLE_FILES)) {
    test(`the ${kind} document preview`, async ({ adminPage: page }) => {
      await page.goto('/documents');
      await settled(page, 'Documents');
      await chooseRowAction(page, file.name, 'View');
      await expect(openDialog(page)).toContainText(file.name);
      await checkDialog(page, `${kind} preview`);
      await openDialog(page).getByRole('button', { name: 'Close', exact: true }).click();
    });
  }

  test('edit properties, edit content and the confirmation', async ({ adminPage: page }) => {
    await page.goto('/documents');
    await settled(page, 'Documents');
    await chooseRowAction(page, SAMPLE_FILES.text.name, 'Edit Properties');
    await checkDialog(page, 'edit properties');
    await expectReachable(openDialog(page).getByRole('button', { name: 'Save Changes' }), 'Save');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await chooseRowAction(page, SAMPLE_FILES.text.name, 'Edit Content');
    await expect(openDialog(page).getByRole('textbox')).toHaveValue(/budget approved/);
    await checkDialog(page, 'edit content');
    await openDialog(page).getByRole('button', { name: 'Close', exact: true }).click();
    await chooseRowAction(page, SAMPLE_FILES.other.name, 'Delete');
    await checkDialog(page, 'confirmation');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();
  });

  test('invite, invitation sent and logo upload', async ({ adminPage: page }) => {
    await page.goto('/users');
    await settled(page, 'User Management');
    await page.getByRole('button', { name: 'Invite User' }).click();
    await checkDialog(page, 'invite');
    await openDialog(page).getByLabel('Email address').fill(`phone-${Date.now()}@example.test`);
    await openDialog(page).getByRole('button', { name: 'Send Invitation' }).click();
    await expect(
      openDialog(page).getByText('Invitation created. It was not e-mailed.'),
    ).toBeVisible();
    await expectReachable(openDialog(page).getByRole('button', { name: 'Copy link' }), 'Copy link');
    await checkDialog(page, 'invitation sent');
    await openDialog(page).getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Upload custom logo' }).click();
    await checkDialog(page, 'logo upload');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();
  });

  test('legal category: e-mail, integration and contact', async ({ adminPage: page }) => {
    await page.goto('/operations/legal');
    await settled(page, 'Legal Compliance');
    await page.getByRole('button', { name: `Email ${SAMPLE_FILES.pdf.name}` }).click();
    await checkDialog(page, 'email documents');
    await expectReachable(openDialog(page).getByRole('button', { name: 'Send Email' }), 'Send');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Add Integration' }).click();
    await checkDialog(page, 'add integration');
    await expectReachable(openDialog(page).getByRole('button', { name: 'Save Changes' }), 'Save');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Contact: Dana Signer' }).click();
    await checkDialog(page, 'contact');
    await openDialog(page).getByRole('button', { name: 'Edit Contact' }).click();
    await checkDialog(page, 'contact edit');
    await openDialog(page).getByRole('button', { name: 'Close', exact: true }).click();
  });

  test('legal category: corporate status', async ({ adminPage: page }) => {
    await page.goto('/operations/legal');
    await settled(page, 'Legal Compliance');
    const corporate = page.locator('section', {
      has: page.getByRole('heading', { name: 'Corporate Status Dashboard' }),
    });
    await corporate.getByRole('button', { name: 'Edit Status' }).click();
    await expectReachable(corporate.getByRole('button', { name: 'Save Status' }), 'Save Status');
    await expectFitsScreen(page, 'corporate status edit');
    await corporate.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'corporate status edit');
    await corporate.getByRole('button', { name: 'Cancel' }).click();
  });

  test('department settings, provider settings and the own profile', async ({
    adminPage: page,
  }) => {
    await page.goto('/department/worship');
    await settled(page, 'Worship Ministry');
    await page.getByRole('button', { name: 'Department Settings' }).click();
    await checkDialog(page, 'department settings');
    await page.keyboard.press('Escape');

    await page.goto('/oauth');
    await settled(page, 'OAuth Connections');
    await page.getByRole('button', { name: 'Settings for Slack' }).click();
    await checkDialog(page, 'provider settings');
    await expectReachable(openDialog(page).getByRole('button', { name: 'Save' }), 'Save');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();

    // The own profile, opened from the small-screen menu.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await checkDialog(page, 'profile');
    await expectReachable(openDialog(page).getByRole('button', { name: 'Save' }), 'Save');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();
  });
});

test('the screens of a user without an organisation and of a plain member', async ({
  browser,
  baseURL,
  world,
}) => {
  const lone = await signedInContext(browser, baseURL!, world.withoutOrganization, PHONE);
  const lonePage = await lone.newPage();
  await lonePage.goto('/');
  await settled(lonePage, 'Welcome to Steward');
  await expectReachable(
    lonePage.getByRole('link', { name: 'Set Up Organization' }),
    'Set Up Organization',
  );
  await checkPage(lonePage, 'welcome');
  await lonePage.goto('/users');
  await settled(lonePage, 'Set up your organization');
  await expectReachable(
    lonePage.getByRole('button', { name: 'Create Organization' }),
    'Create Organization',
  );
  await checkPage(lonePage, 'organization setup');
  await lone.close();

  const member = await signedInContext(browser, baseURL!, world.member, PHONE);
  const memberPage = await member.newPage();
  await memberPage.goto('/users');
  await settled(memberPage, 'Access Restricted');
  await checkPage(memberPage, 'access restricted');
  await memberPage.goto('/operations/legal');
  await settled(memberPage, 'Legal Compliance');
  await checkPage(memberPage, 'member legal');
  await member.close();

  const deactivated = await signedInContext(browser, baseURL!, world.deactivated, PHONE);
  const deactivatedPage = await deactivated.newPage();
  await deactivatedPage.goto('/');
  await settled(deactivatedPage, 'Your account has been deactivated');
  await expectReachable(deactivatedPage.getByRole('button', { name: 'Open menu' }), 'menu');
  await checkPage(deactivatedPage, 'deactivated');
  await deactivated.close();
});
