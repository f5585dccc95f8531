import { expect, type Locator, type Page } from '@playwright/test';
import {
  authenticator,
  invitedMember,
  linkIn,
  mailTo,
  organizationWithMasterAdmin,
  PASSWORD,
  test,
} from './support/accounts.ts';
import { expectFitsScreen, PHONE, saveScreenshot } from './support/mobile.ts';

// Every account screen of issue 16 fits a laptop (1366 px) and the narrowest phone (375 px):
// nothing scrolls sideways, no control leaves the screen. Screenshots go to
// test-results/mobile/ for a person to look at.

// Each test has an organisation of its own and reads only the e-mails to its people: they may
// run side by side, both workers on the run's account server (support/account-server.ts).
test.describe.configure({ mode: 'parallel' });

const WIDTHS = [
  { label: 'laptop', viewport: { width: 1366, height: 768 } },
  { label: 'phone', viewport: PHONE },
];

/** Checks the screen's width and saves a screenshot: of the page, or of `part` in view. */
async function look(page: Page, label: string, name: string, part?: Locator) {
  await expectFitsScreen(page, `${name} (${label})`);
  if (part) await part.scrollIntoViewIfNeeded();
  await saveScreenshot(page, `accounts ${label} ${name}`, !part);
}

async function signIn(page: Page, email: string) {
  await page.goto('/');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

for (const { label, viewport } of WIDTHS) {
  // Three tests per width, each with its own organisation and page, a few screens each: one
  // walk through every screen took most of a minute of Chromium's CPU under load.
  test.describe(`the account screens fit a ${label}`, () => {
    test.use({ viewport });

    test('forgotten password: the request, its answer and the page of the link', async ({
      page,
      baseURL,
      mail,
    }) => {
      const { masterAdmin: master } = await organizationWithMasterAdmin(baseURL!, mail);
      await page.goto('/');
      await page.getByLabel('Email address').fill(master.email);
      await page.getByRole('button', { name: 'Forgot your password?' }).click();
      await look(page, label, 'forgot password');
      const sent = mail.received.length;
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await expect(page.getByRole('status')).toBeVisible();
      await look(page, label, 'forgot password sent');
      const reset = await mailTo(mail, master.email, 'Reset your Steward password', sent);
      await page.goto(linkIn(reset, baseURL!, '/reset-password'));
      await page.getByLabel('New Password', { exact: true }).fill('one passphrase');
      await page.getByLabel('Confirm Password', { exact: true }).fill('another passphrase');
      await page.getByRole('button', { name: 'Set New Password' }).click();
      await expect(
        page.getByLabel('Confirm Password', { exact: true }),
      ).toHaveAccessibleDescription('Passwords do not match');
      await look(page, label, 'reset password');
      await page.goto('/reset-password?token_hash=nothing&type=recovery');
      await page.getByLabel('New Password', { exact: true }).fill('one passphrase');
      await page.getByLabel('Confirm Password', { exact: true }).fill('one passphrase');
      await page.getByRole('button', { name: 'Set New Password' }).click();
      await expect(page.getByRole('heading', { name: 'Invalid Link' })).toBeVisible();
      await look(page, label, 'reset password invalid link');
    });

    test('the profile: password, e-mail, sessions, two-factor set-up, and the e-mail change', async ({
      page,
      baseURL,
      mail,
    }) => {
      const { masterAdmin: master } = await organizationWithMasterAdmin(baseURL!, mail);
      await signIn(page, master.email);
      if (label === 'phone') await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('button', { name: 'Edit profile' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your profile' });
      await expect(dialog.getByText('Two-factor sign-in is off.')).toBeVisible();
      await look(page, label, 'profile', dialog.getByRole('heading', { name: 'Change password' }));
      await look(page, label, 'profile sessions', dialog.getByText('Sign out other sessions'));
      const newEmail = `new-${master.email}`;
      await dialog.getByLabel('New email address').fill(newEmail);
      await dialog.getByRole('button', { name: 'Change Email' }).click();
      await expect(
        dialog.getByText(`Check ${newEmail} and ${master.email} for a link`),
      ).toBeVisible();
      await look(
        page,
        label,
        'profile email sent',
        dialog.getByText(`Check ${newEmail} and ${master.email} for a link`),
      );
      await dialog.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      const secret = await dialog.getByTestId('totp-secret').innerText();
      await look(
        page,
        label,
        'profile two-factor set-up',
        dialog.getByRole('img', { name: 'QR code for your authenticator app' }),
      );
      await look(
        page,
        label,
        'profile two-factor code',
        dialog.getByRole('button', { name: 'Verify' }),
      );
      await dialog.getByLabel('Authentication code').fill(authenticator(secret).currentCode());
      await dialog.getByRole('button', { name: 'Verify' }).click();
      await expect(dialog.getByText('Two-factor sign-in is on.')).toBeVisible();
      await look(
        page,
        label,
        'profile two-factor on',
        dialog.getByText('Two-factor sign-in is on.'),
      );
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // The e-mail change's confirmation page.
      const change = await mailTo(mail, newEmail, 'Confirm your new e-mail address for Steward');
      await page.goto(linkIn(change, baseURL!, '/confirm-email'));
      await expect(page.getByRole('button', { name: 'Confirm Email Change' })).toBeVisible();
      await look(page, label, 'confirm email change');
    });

    test('two-factor sign-in: the second step, the requirement and the set-up it leads to', async ({
      page,
      baseURL,
      mail,
    }) => {
      const organization = await organizationWithMasterAdmin(baseURL!, mail);
      const master = organization.masterAdmin;
      const admin = await invitedMember(baseURL!, master, 'admin', 'Naomi Reed');
      // The master admin's second factor, set up through the API (the screens of setting it up
      // are the profile test's).
      const enrolled = await master.api.auth.mfa.enroll({ factorType: 'totp' });
      if (enrolled.error) throw enrolled.error;
      const app = authenticator(enrolled.data.totp.secret);
      const verified = await master.api.auth.mfa.challengeAndVerify({
        factorId: enrolled.data.id,
        code: app.currentCode(),
      });
      if (verified.error) throw verified.error;

      await signIn(page, master.email);
      await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
      await look(page, label, 'two-factor challenge');
      await page.getByLabel('Authentication code').fill(app.nextCode());
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page.getByRole('heading', { level: 1, name: organization.name })).toBeVisible();
      await page.goto('/users');
      const required = page.getByRole('checkbox', { name: /Require two-factor sign-in/ });
      await required.click();
      await expect(required).toBeChecked();
      await look(page, label, 'users two-factor requirement');

      // An admin led to set it up.
      await page.evaluate(() => window.localStorage.clear());
      await signIn(page, admin.email);
      await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();
      await expect(page.getByTestId('totp-secret')).toBeVisible();
      await look(page, label, 'two-factor required set-up');
    });
  });
}
