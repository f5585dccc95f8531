import { expect, type Locator, type Page } from '@playwright/test';
import {
  adminPageGroups,
  adminPages,
  expectAccessible,
  expectBadgesCarryText,
  expectLabelledControls,
  openDialog,
  SAMPLE_FILES,
  settled,
  signedInContext,
  test,
} from './support/a11y.ts';
import { chooseRowAction } from './support/documents.ts';

// Issue 8, accessibility: axe-core on every route and every dialog (no serious or critical
// violation), labelled form fields and badges that carry words, for every kind of visitor:
// signed out, master admin, a user without an organisation, a plain and a deactivated member.
// The keyboard journeys are in keyboard tests further down. Each test opens its own page on the
// worker's seeded world (`test` of support/a11y.ts), a few screens each, so that the tests run
// in parallel and none needs another's page.

test.describe.configure({ mode: 'parallel' });

/** The checks every screen gets: axe, labels on every field, words on every badge. */
async function checkScreen(target: Page, label: string, scope?: string) {
  await expectAccessible(target, label, scope);
  const root = scope ? target.locator(scope).last() : target.locator('body');
  await expectLabelledControls(root);
  await expectBadgesCarryText(root);
}

async function checkDialog(target: Page, label: string) {
  const dialog = openDialog(target);
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('[role="status"]').filter({ hasText: /^Loading/ })).toHaveCount(0);
  await checkScreen(target, `${label} dialog`, '[role="dialog"]');
}

function documentRow(target: Page, name: string) {
  return target.getByRole('row').filter({ hasText: name });
}

test.describe('the signed-out screens', () => {
  test('sign in, a failed sign-in and sign up', async ({ browser, baseURL, world }) => {
    const context = await browser.newContext({ baseURL });
    const visitor = await context.newPage();

    await visitor.goto('/documents');
    await settled(visitor, 'Sign in to Steward');
    await checkScreen(visitor, 'sign-in form');

    await visitor.getByLabel('Email address').fill(world.member.email);
    await visitor.getByLabel('Password', { exact: true }).fill('not the password');
    await visitor.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(visitor.getByRole('alert')).toHaveText('Invalid email or password');
    await checkScreen(visitor, 'sign-in form with an error');

    await visitor.getByRole('button', { name: 'Sign up' }).click();
    await settled(visitor, 'Create your account');
    await checkScreen(visitor, 'sign-up form');
    await context.close();
  });

  test('the invitation page, with an error, and an invalid invitation', async ({
    browser,
    baseURL,
    world,
  }) => {
    const context = await browser.newContext({ baseURL });
    const visitor = await context.newPage();

    await visitor.goto(world.invitationLink);
    await settled(visitor, /^Join /);
    await checkScreen(visitor, 'accept-invitation page');
    await visitor.getByLabel('Create Password').fill('abc');
    await visitor.getByLabel('Confirm Password').fill('abd');
    await visitor.getByRole('button', { name: 'Accept Invitation & Create Account' }).click();
    await expect(visitor.getByText('Passwords do not match')).toBeVisible();
    await checkScreen(visitor, 'accept-invitation page with an error');

    await visitor.goto('/invite/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef');
    await settled(visitor, 'Invalid Invitation');
    await checkScreen(visitor, 'invalid invitation page');
    await context.close();
  });
});

for (const group of adminPageGroups(3)) {
  test(`every page a master admin sees, with data: ${group.join(', ')}`, async ({
    adminPage: page,
    world,
  }) => {
    const pages = adminPages(world.organization.name).filter(({ path }) => group.includes(path));
    for (const { path, heading } of pages) {
      await test.step(path, async () => {
        await page.goto(path);
        await settled(page, heading);
        await checkScreen(page, path);
      });
    }
  });
}

test.describe('every dialog a master admin opens', () => {
  test('logo upload and own profile', async ({ adminPage: page }) => {
    await page.goto('/documents');
    await settled(page, 'Documents');
    await page.getByRole('button', { name: 'Upload custom logo' }).click();
    await checkDialog(page, 'logo upload');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Edit profile' }).click();
    await expect(openDialog(page, 'Your profile').getByLabel('Full name')).toBeVisible();
    await checkDialog(page, 'profile');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();
  });

  for (const [kind, file] of Object.entries(SAMPLE_FILES)) {
    test(`the ${kind} document preview`, async ({ adminPage: page }) => {
      await page.goto('/documents');
      await settled(page, 'Documents');
      await chooseRowAction(page, file.name, 'View');
      const dialog = openDialog(page);
      await expect(dialog).toContainText(file.name);
      if (kind === 'image') await expect(dialog.getByRole('img')).toBeVisible();
      if (kind === 'text') await expect(dialog).toContainText('budget approved');
      // Word files are shown as Steward renders them (issue 25), in a frame titled with the name.
      if (kind === 'office') {
        await expect(
          dialog.frameLocator(`iframe[title="${file.name}"]`).getByText('Minutes'),
        ).toBeVisible({ timeout: 30_000 });
      }
      if (kind === 'other') {
        await expect(dialog.getByRole('button', { name: 'Download File' })).toBeVisible();
      }
      await checkDialog(page, `${kind} preview`);
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await expect(dialog).toBeHidden();
    });
  }

  test('edit properties and edit content', async ({ adminPage: page }) => {
    await page.goto('/documents');
    await settled(page, 'Documents');
    await chooseRowAction(page, SAMPLE_FILES.text.name, 'Edit Properties');
    await expect(openDialog(page).getByLabel('Category')).toBeVisible();
    await checkDialog(page, 'edit properties');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();

    await chooseRowAction(page, SAMPLE_FILES.text.name, 'Edit Content');
    await expect(openDialog(page).getByRole('textbox')).toHaveValue(/budget approved/);
    await checkDialog(page, 'edit content');
    await openDialog(page).getByRole('button', { name: 'Close', exact: true }).click();
  });

  test('the in-app confirmation, a field in error and a notice', async ({ adminPage: page }) => {
    await page.goto('/documents');
    await settled(page, 'Documents');
    await chooseRowAction(page, SAMPLE_FILES.other.name, 'Delete');
    await expect(openDialog(page, 'Please confirm')).toBeVisible();
    await checkDialog(page, 'confirmation');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/upload');
    await settled(page, 'Upload Documents');
    await page.getByRole('button', { name: 'Upload Documents' }).click();
    // Said under the field, which takes the focus: no dialog to dismiss.
    const files = page.getByLabel('Choose files to upload');
    await expect(files).toHaveAccessibleDescription(/Please select at least one file to upload\.$/);
    await expect(files).toBeFocused();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await checkScreen(page, 'upload form with a field in error');
  });

  test('invite dialog: the form and the sent view', async ({ adminPage: page }) => {
    await page.goto('/users');
    await settled(page, 'User Management');
    await page.getByRole('button', { name: 'Invite User' }).click();
    await checkDialog(page, 'invite form');
    await openDialog(page).getByLabel('Email address').fill(`invitee-${Date.now()}@example.test`);
    await openDialog(page).getByRole('button', { name: 'Send Invitation' }).click();
    await expect(
      openDialog(page).getByText('Invitation created. It was not e-mailed.'),
    ).toBeVisible();
    await checkDialog(page, 'invitation sent');
    await openDialog(page).getByRole('button', { name: 'Done' }).click();
  });

  test('legal category: e-mail and integrations', async ({ adminPage: page }) => {
    await page.goto('/operations/legal');
    await settled(page, 'Legal Compliance');
    await page.getByRole('checkbox', { name: `Select ${SAMPLE_FILES.pdf.name}` }).check();
    await page.getByRole('button', { name: 'Email Selected (1)' }).click();
    await expect(openDialog(page, 'Email Documents')).toBeVisible();
    await checkDialog(page, 'e-mail documents');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Add Integration' }).click();
    await expect(openDialog(page, 'Add Integration')).toBeVisible();
    await checkDialog(page, 'add integration');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Edit DocuSign' }).click();
    await expect(openDialog(page, 'Edit DocuSign')).toBeVisible();
    await checkDialog(page, 'edit integration');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();
  });

  test('legal category: contact and corporate status', async ({ adminPage: page }) => {
    await page.goto('/operations/legal');
    await settled(page, 'Legal Compliance');
    await page.getByRole('button', { name: 'Contact: Dana Signer' }).click();
    const contact = openDialog(page, 'DocuSign Contact');
    await expect(contact).toContainText('Account manager');
    await checkDialog(page, 'contact (view)');
    await contact.getByRole('button', { name: 'Edit Contact' }).click();
    await expect(contact.getByLabel('Name', { exact: true })).toHaveValue('Dana Signer');
    await checkDialog(page, 'contact (edit)');
    // Cancel leaves edit mode for the saved contact; Done closes the dialog.
    await contact.getByRole('button', { name: 'Cancel' }).click();
    await contact.getByRole('button', { name: 'Done' }).click();
    await expect(contact).toBeHidden();

    const corporate = page.locator('section', {
      has: page.getByRole('heading', { name: 'Corporate Status Dashboard' }),
    });
    await corporate.getByRole('button', { name: 'Edit Status' }).click();
    await expect(corporate.getByLabel('Entity Name')).toBeVisible();
    await checkScreen(page, 'corporate status (edit)');
    await corporate.getByRole('button', { name: 'Cancel' }).click();
  });

  test('department settings', async ({ adminPage: page }) => {
    await page.goto('/department/worship');
    await settled(page, 'Worship Ministry');
    await page.getByRole('button', { name: 'Department Settings' }).click();
    await checkDialog(page, 'department settings');
    await page.keyboard.press('Escape');
  });

  test('OAuth provider settings and the disconnect confirmation', async ({ adminPage: page }) => {
    await page.goto('/oauth');
    await settled(page, 'OAuth Connections');
    await page.getByRole('button', { name: 'Settings for Slack' }).click();
    await expect(openDialog(page, 'Slack settings')).toBeVisible();
    await checkDialog(page, 'OAuth provider settings');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByRole('article', { name: 'Slack' })
      .getByRole('button', { name: 'Disconnect' })
      .click();
    await expect(openDialog(page, 'Please confirm')).toContainText(
      'Are you sure you want to disconnect Slack?',
    );
    await checkDialog(page, 'disconnect confirmation');
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click();
  });

  test('the small-screen menu', async ({ adminPage: page }) => {
    await page.goto('/oauth');
    await settled(page, 'OAuth Connections');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('link', { name: 'Users' })).toBeVisible();
    await checkScreen(page, 'small-screen menu');
    await page.getByRole('button', { name: 'Close menu' }).click();
  });
});

test.describe('a user without an organisation, a plain member and a deactivated member', () => {
  test('a user without an organisation', async ({ browser, baseURL, world }) => {
    const lone = await signedInContext(browser, baseURL!, world.withoutOrganization);
    const lonePage = await lone.newPage();
    await lonePage.goto('/');
    await settled(lonePage, 'Welcome to Steward');
    await checkScreen(lonePage, 'Welcome panel');
    await lonePage.goto('/users');
    await settled(lonePage, 'Set up your organization');
    await checkScreen(lonePage, 'organisation set-up');
    await lone.close();
  });

  test('a plain member', async ({ browser, baseURL, world }) => {
    const member = await signedInContext(browser, baseURL!, world.member);
    const memberPage = await member.newPage();
    await memberPage.goto('/users');
    await settled(memberPage, 'Access Restricted');
    await checkScreen(memberPage, 'Access Restricted');
    await memberPage.goto('/department/elder-board');
    await settled(memberPage, 'Elder Board');
    await memberPage.getByRole('button', { name: 'Manage Team' }).click();
    await expect(memberPage.getByRole('log', { name: 'Notifications' })).toContainText(
      'Team members are managed by your organization’s administrators.',
    );
    await checkScreen(memberPage, 'Manage Team notice');
    await member.close();
  });

  test('a deactivated member', async ({ browser, baseURL, world }) => {
    const deactivated = await signedInContext(browser, baseURL!, world.deactivated);
    const deactivatedPage = await deactivated.newPage();
    await deactivatedPage.goto('/');
    await settled(deactivatedPage, 'Your account has been deactivated');
    await checkScreen(deactivatedPage, 'deactivated notice');
    await deactivated.close();
  });
});

test('status is never told by colour alone', async ({ adminPage: page, world }) => {
  await page.goto('/documents');
  await settled(page, 'Documents');
  for (const file of Object.values(SAMPLE_FILES)) {
    await expect(documentRow(page, file.name)).toContainText('Active');
  }

  await page.goto('/');
  await settled(page, world.organization.name);
  const renewals = page.getByRole('region', { name: 'Upcoming Renewals' });
  for (const word of ['overdue', 'soon', 'ok']) {
    await expect(renewals.getByText(word, { exact: true })).toHaveCount(1);
  }
  // The current page in the navigation is marked for assistive technology, not only tinted.
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }),
  ).toHaveAttribute('aria-current', 'page');

  await page.goto('/users');
  await settled(page, 'User Management');
  await expect(page.getByRole('row', { name: new RegExp(world.deactivated.email) })).toContainText(
    'Inactive',
  );
  await expect(page.getByRole('row', { name: new RegExp(world.member.email) })).toContainText(
    'Active',
  );
  await expect(page.getByText('Expired', { exact: true })).toHaveCount(1);

  await page.goto('/oauth');
  await settled(page, 'OAuth Connections');
  await expect(page.getByRole('article', { name: 'Slack' })).toContainText('Connected');
  await expect(page.getByRole('article', { name: 'GitHub' })).toContainText('Needs reconnection');

  await page.goto('/operations/legal');
  await settled(page, 'Legal Compliance');
  await expect(page.getByRole('alert').filter({ hasText: 'Filing Overdue!' })).toBeVisible();
});

test.describe('by keyboard alone', () => {
  test('sign in, skip to the content, and move through the navigation', async ({
    browser,
    baseURL,
    world,
  }) => {
    const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
    const visitor = await context.newPage();
    await visitor.goto('/');
    await settled(visitor, 'Sign in to Steward');

    await tabTo(visitor, visitor.getByLabel('Email address'));
    await visitor.keyboard.type(world.organization.masterAdmin.email);
    await visitor.keyboard.press('Tab');
    await expect(visitor.getByLabel('Password', { exact: true })).toBeFocused();
    await visitor.keyboard.type(world.organization.masterAdmin.password);
    // The show/hide toggle is a button of its own, reached with Tab and pressed with Space.
    await visitor.keyboard.press('Tab');
    await expect(visitor.getByRole('button', { name: 'Show password' })).toBeFocused();
    await visitor.keyboard.press('Space');
    await expect(visitor.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
    // Then the way back in for a forgotten password, then the form's button.
    await visitor.keyboard.press('Tab');
    await expect(visitor.getByRole('button', { name: 'Forgot your password?' })).toBeFocused();
    await visitor.keyboard.press('Tab');
    await expect(visitor.getByRole('button', { name: 'Sign in', exact: true })).toBeFocused();
    await visitor.keyboard.press('Enter');
    await settled(visitor, world.organization.name);

    // The first Tab reaches the skip link, which moves focus past the navigation.
    await visitor.keyboard.press('Tab');
    const skip = visitor.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    // Shown over the top of the page while it has the focus.
    const box = (await skip.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(64);
    expect(box.height).toBeGreaterThanOrEqual(24);
    await visitor.keyboard.press('Enter');
    await expect(visitor.locator('main')).toBeFocused();
    await visitor.keyboard.press('Tab');
    const firstInMain = await visitor.evaluate(() =>
      Boolean(document.activeElement?.closest('main')),
    );
    expect(firstInMain).toBe(true);

    // Through the navigation to Documents, then Operations and on to a category tile.
    await visitor.goto('/');
    await settled(visitor, world.organization.name);
    const nav = visitor.getByRole('navigation', { name: 'Main' });
    await tabTo(visitor, nav.getByRole('link', { name: 'Documents' }));
    await visitor.keyboard.press('Enter');
    await expect(visitor).toHaveURL(/\/documents$/);
    await settled(visitor, 'Documents');
    await expect(nav.getByRole('link', { name: 'Documents' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await tabTo(visitor, nav.getByRole('link', { name: 'Operations' }));
    await visitor.keyboard.press('Enter');
    await settled(visitor, 'Operations Center');
    await tabTo(visitor, visitor.getByRole('link', { name: /^Legal/ }).first());
    await visitor.keyboard.press('Enter');
    await settled(visitor, 'Legal Compliance');
    await context.close();
  });

  test.describe('dialogs take focus, keep it inside, close with Escape and give it back', () => {
    test('the invitation and the logo', async ({ adminPage: page }) => {
      await page.goto('/users');
      await settled(page, 'User Management');
      const invite = page.getByRole('button', { name: 'Invite User' });
      await tabTo(page, invite);
      await page.keyboard.press('Enter');
      const dialog = openDialog(page, 'Invite User');
      await expect(dialog.getByLabel('Email address')).toBeFocused();
      await expectFocusTrapped(page, dialog);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(invite).toBeFocused();

      // The logo dialog, opened with Space from the navigation.
      const logo = page.getByRole('button', { name: 'Upload custom logo' });
      await tabTo(page, logo);
      await page.keyboard.press('Space');
      await expect(openDialog(page, 'Upload Custom Logo')).toBeVisible();
      await expectFocusTrapped(page, openDialog(page, 'Upload Custom Logo'));
      await page.keyboard.press('Escape');
      await expect(logo).toBeFocused();
    });

    // A preview, and the confirmation over the documents table: Cancel (the safe choice) has
    // the focus, Escape answers Cancel, and the row's button has the focus again. The name
    // opens the preview; the other actions are in the row's menu (arrow keys, Enter).
    test('a preview and the confirmation over the documents table', async ({ adminPage: page }) => {
      await page.goto('/documents');
      await settled(page, 'Documents');
      const view = documentRow(page, SAMPLE_FILES.text.name).getByRole('button', {
        name: SAMPLE_FILES.text.name,
        exact: true,
      });
      await tabTo(page, view);
      await page.keyboard.press('Enter');
      const preview = openDialog(page);
      await expect(preview).toContainText('budget approved');
      await expectFocusTrapped(page, preview);
      await page.keyboard.press('Escape');
      await expect(view).toBeFocused();

      const actions = documentRow(page, SAMPLE_FILES.text.name).getByRole('button', {
        name: `Actions for ${SAMPLE_FILES.text.name}`,
      });
      await tabTo(page, actions);
      await page.keyboard.press('Enter');
      // The menu holds the focus and points at its active item (aria-activedescendant).
      await expect(page.getByRole('menuitem', { name: 'View' })).toHaveAttribute('data-focus', '');
      // Delete is the last item.
      await page.keyboard.press('End');
      await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveAttribute(
        'data-focus',
        '',
      );
      await page.keyboard.press('Enter');
      const remove = actions;
      const confirmation = openDialog(page, 'Please confirm');
      await expect(confirmation.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await expectFocusTrapped(page, confirmation);
      await page.keyboard.press('Escape');
      await expect(confirmation).toBeHidden();
      await expect(remove).toBeFocused();
      await expect(documentRow(page, SAMPLE_FILES.text.name)).toBeVisible();
    });

    // A dialog over a dialog: with unsaved text, Escape in the editor asks first; Escape then
    // answers only that question, and the focus is back in the editor, which stays open.
    test('a dialog over a dialog: unsaved text in the editor', async ({ adminPage: page }) => {
      await page.goto('/documents');
      await settled(page, 'Documents');
      const editContent = documentRow(page, SAMPLE_FILES.text.name).getByRole('button', {
        name: `Actions for ${SAMPLE_FILES.text.name}`,
      });
      await tabTo(page, editContent);
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: 'View' }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect(page.getByRole('menuitem', { name: 'Edit Content' })).toHaveAttribute(
        'data-focus',
        '',
      );
      await page.keyboard.press('Enter');
      const editor = page.getByRole('textbox', { name: `Content of ${SAMPLE_FILES.text.name}` });
      await expect(editor).toHaveValue(/budget approved/);
      await tabTo(page, editor);
      await page.keyboard.type('- minutes signed\n');
      await page.keyboard.press('Escape');
      const question = openDialog(page, 'Please confirm');
      await expect(question).toContainText('You have unsaved changes');
      await expectFocusTrapped(page, question);
      await page.keyboard.press('Escape');
      await expect(question).toBeHidden();
      await expect(editor).toBeFocused();
      await page.keyboard.press('Escape');
      // Enter on the focused safe choice keeps the editor; the action is one Tab further.
      await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(question).toBeHidden();
      await expect(editor).toBeVisible();
      await page.keyboard.press('Escape');
      await page.keyboard.press('Tab');
      await expect(question.getByRole('button', { name: 'Discard changes' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(editor).toBeHidden();
      await expect(editContent).toBeFocused();
    });

    // A category page's row opens the e-mail dialog; closing gives the focus back to the row.
    test('the e-mail dialog of a category page', async ({ adminPage: page }) => {
      await page.goto('/operations/legal');
      await settled(page, 'Legal Compliance');
      const email = page.getByRole('button', { name: `Email ${SAMPLE_FILES.pdf.name}` });
      await tabTo(page, email);
      await page.keyboard.press('Enter');
      const emailDialog = openDialog(page, 'Email Documents');
      await expect(emailDialog).toBeVisible();
      await expectFocusTrapped(page, emailDialog);
      await page.keyboard.press('Escape');
      await expect(emailDialog).toBeHidden();
      await expect(email).toBeFocused();
    });
  });

  test('the small-screen menu opens, is walked with Tab and closes with Escape', async ({
    adminPage: page,
    world,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/');
    await settled(page, world.organization.name);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await tabTo(page, toggle);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Dashboard' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('link', { name: 'Dashboard' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();

    await page.keyboard.press('Enter');
    await tabTo(page, page.getByRole('link', { name: 'Upload', exact: true }));
    await page.keyboard.press('Enter');
    await settled(page, 'Upload Documents');
    await expect(page.getByRole('link', { name: 'Documents', exact: true })).toBeHidden();
  });
});

/** Presses Tab until `target` has the focus (at most 100 times). */
async function tabTo(target: Page, locator: Locator) {
  for (let presses = 0; presses < 100; presses += 1) {
    if (await locator.evaluate((element) => element === document.activeElement)) return;
    await target.keyboard.press('Tab');
  }
  await expect(locator).toBeFocused();
}

/** Tab and Shift+Tab, twice round, never leave the dialog. */
async function expectFocusTrapped(target: Page, dialog: Locator) {
  const count = await dialog.evaluate(
    (element) =>
      element.querySelectorAll(
        'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"])',
      ).length,
  );
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let presses = 0; presses < count * 2 + 1; presses += 1) {
      await target.keyboard.press(key);
      const inside = await dialog.evaluate((element) => element.contains(document.activeElement));
      expect(inside, `focus left the dialog after ${presses + 1} × ${key}`).toBe(true);
    }
  }
}
