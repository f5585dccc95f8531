import { expect, type Page } from '@playwright/test';
import { apiClient, uniqueEmail } from './support/api.ts';
import {
  authenticator,
  confirmedPerson,
  invitedMember,
  linkIn,
  mailTo,
  organizationWithMasterAdmin,
  PASSWORD,
  test,
} from './support/accounts.ts';
import { confirm, memberRow } from './support/team.ts';

// The account journeys of issue 16, against a server that sends its e-mails through SMTP (see
// support/accounts.ts): confirming a new account, a forgotten password, a new e-mail address,
// two-factor sign-in, and an organisation that requires it of its admins.

// Each journey has people of its own and reads only the e-mails to them: the tests may run side
// by side, both workers on the run's account server (support/account-server.ts).
test.describe.configure({ mode: 'parallel' });

const NEW_PASSWORD = 'a longer and newer passphrase';

async function signInThroughForm(page: Page, email: string, password: string) {
  await expect(page.getByRole('heading', { name: 'Sign in to Steward' })).toBeVisible();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function canSignIn(baseURL: string, email: string, password: string) {
  const { error } = await (await apiClient(baseURL)).auth.signInWithPassword({ email, password });
  return error === null;
}

/** The secret of the set-up screen, as an authenticator app reads it from the QR code. */
async function scanSecret(page: Page) {
  const qrCode = page.getByRole('img', { name: 'QR code for your authenticator app' });
  await expect(qrCode).toBeVisible();
  // The picture itself, not a broken image's placeholder.
  await expect
    .poll(() => qrCode.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
    .toBeGreaterThan(0);
  return authenticator(await page.getByTestId('totp-secret').innerText());
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

test('a new member confirms their address, forgets their password and sets a new one from the e-mail', async ({
  page,
  baseURL,
  mail,
}) => {
  const email = uniqueEmail('forgetful');

  await test.step('sign-up waits for the address to be confirmed from the e-mail', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('log', { name: 'Notifications' })).toContainText(
      'Account created! Please check your email and confirm your account, then sign in.',
    );
    await signInThroughForm(page, email, PASSWORD);
    await expect(page.getByRole('alert')).toHaveText(
      'Please check your email and confirm your account',
    );

    const message = await mailTo(mail, email, 'Confirm your Steward account');
    await page.goto(linkIn(message, baseURL!, '/confirm-email'));
    await expect(page.getByRole('heading', { name: 'Confirm your email address' })).toBeVisible();
    await page.getByRole('button', { name: 'Confirm Email' }).click();
    await expect(page.getByRole('status')).toHaveText(`Your account is confirmed: ${email}.`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Set up your organization' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).first().click();
  });

  const sent = mail.received.length;
  await test.step('"Forgot your password?" sends a reset link', async () => {
    await expect(page.getByRole('heading', { name: 'Sign in to Steward' })).toBeVisible();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await expect(page.getByLabel('Email address')).toHaveValue(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toHaveText(
      'If an account exists for this address, we have sent it a link to set a new password. The link works once, for one hour.',
    );
  });

  let resetLink = '';
  await test.step('the link sets a new password and signs the member in', async () => {
    const message = await mailTo(mail, email, 'Reset your Steward password', sent);
    resetLink = linkIn(message, baseURL!, '/reset-password');
    await page.goto(resetLink);
    await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
    await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm Password', { exact: true }).fill('something else');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByLabel('Confirm Password', { exact: true })).toHaveAccessibleDescription(
      'Passwords do not match',
    );
    await page.getByLabel('Confirm Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByRole('log', { name: 'Notifications' })).toContainText(
      'Your password has been changed.',
    );
    await expect(page.getByRole('heading', { name: 'Set up your organization' })).toBeVisible();
    expect(await canSignIn(baseURL!, email, NEW_PASSWORD)).toBe(true);
    expect(await canSignIn(baseURL!, email, PASSWORD)).toBe(false);
  });

  await test.step('the link works only once', async () => {
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await expect(page.getByRole('heading', { name: 'Sign in to Steward' })).toBeVisible();
    await page.goto(resetLink);
    await page.getByLabel('New Password', { exact: true }).fill('yet another passphrase');
    await page.getByLabel('Confirm Password', { exact: true }).fill('yet another passphrase');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expect(page.getByRole('heading', { name: 'Invalid Link' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(
      'This password reset link is invalid or has expired. Ask for a new one from the sign-in page.',
    );
    expect(await canSignIn(baseURL!, email, NEW_PASSWORD)).toBe(true);
  });
});

test('a member changes their e-mail address and confirms it from the e-mails to both addresses', async ({
  page,
  baseURL,
  mail,
}) => {
  const person = await confirmedPerson(baseURL!, mail, 'moving');
  const newEmail = uniqueEmail('moved');
  await page.goto('/');
  await signInThroughForm(page, person.email, PASSWORD);

  await test.step('the profile asks for the new address and sends it a link', async () => {
    await page.getByRole('button', { name: 'Edit profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your profile' });
    const form = dialog.getByRole('form', { name: 'Change email' });
    await form.getByLabel('New email address').fill(newEmail);
    await form.getByRole('button', { name: 'Change Email' }).click();
    await expect(form.getByRole('status')).toHaveText(
      `Check ${newEmail} and ${person.email} for a link to confirm the change. Until then you sign in with ${person.email}.`,
    );
    expect(await canSignIn(baseURL!, person.email, PASSWORD)).toBe(true);
  });

  await test.step('the link to the new address alone changes nothing', async () => {
    const message = await mailTo(mail, newEmail, 'Confirm your new e-mail address for Steward');
    await page.goto(linkIn(message, baseURL!, '/confirm-email'));
    await expect(
      page.getByRole('heading', { name: 'Confirm your new email address' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Confirm Email Change' }).click();
    await expect(page.getByRole('status')).toHaveText(
      'Confirmed. To finish the change, also open the link we sent to your other email address.',
    );
    expect(await canSignIn(baseURL!, person.email, PASSWORD)).toBe(true);
  });

  await test.step('the link to the current address then changes it', async () => {
    const message = await mailTo(
      mail,
      person.email,
      'Confirm the change of your Steward e-mail address',
    );
    await page.goto(linkIn(message, baseURL!, '/confirm-email'));
    await page.getByRole('button', { name: 'Confirm Email Change' }).click();
    await expect(page.getByRole('status')).toHaveText(`Your email address is now ${newEmail}.`);
    expect(await canSignIn(baseURL!, newEmail, PASSWORD)).toBe(true);
    expect(await canSignIn(baseURL!, person.email, PASSWORD)).toBe(false);
  });

  await test.step('the member signs in with the new address', async () => {
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await signInThroughForm(page, newEmail, PASSWORD);
    await expect(page.getByRole('heading', { name: 'Set up your organization' })).toBeVisible();
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await expect(page.getByRole('dialog', { name: 'Your profile' })).toContainText(newEmail);
  });
});

test('a member sets up two-factor sign-in, signs out, and signs in with a code', async ({
  page,
  baseURL,
  mail,
}) => {
  const { name, masterAdmin } = await organizationWithMasterAdmin(baseURL!, mail);
  await page.goto('/');
  await signInThroughForm(page, masterAdmin.email, PASSWORD);

  let app = authenticator('');
  await test.step('set up from the profile with the key the QR code holds', async () => {
    await page.getByRole('button', { name: 'Edit profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your profile' });
    const section = dialog.getByRole('region', { name: 'Two-factor sign-in' });
    await expect(section).toContainText('Two-factor sign-in is off.');
    await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    app = await scanSecret(page);
    await enterCode(page, app.wrongCode());
    await expect(section.getByRole('alert')).toHaveText('Invalid code. Please try again.');
    await enterCode(page, app.currentCode());
    await expect(section).toContainText('Two-factor sign-in is on.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  await test.step('signing in asks for a code after the password', async () => {
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await signInThroughForm(page, masterAdmin.email, PASSWORD);
    await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await enterCode(page, app.nextCode());
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeHidden();
  });
});

test('a master admin requires two-factor sign-in, an admin is led to set it up, and the master admin removes it when the phone is lost', async ({
  page,
  browser,
  baseURL,
  mail,
}) => {
  const organization = await organizationWithMasterAdmin(baseURL!, mail);
  const admin = await invitedMember(baseURL!, organization.masterAdmin, 'admin', 'Naomi Reed');

  await test.step('the master admin, signed in with a second factor, requires it', async () => {
    const { api } = organization.masterAdmin;
    const enrolled = await api.auth.mfa.enroll({ factorType: 'totp' });
    if (enrolled.error) throw enrolled.error;
    const app = authenticator(enrolled.data.totp.secret);
    const verified = await api.auth.mfa.challengeAndVerify({
      factorId: enrolled.data.id,
      code: app.currentCode(),
    });
    if (verified.error) throw verified.error;

    await page.goto('/users');
    await signInThroughForm(page, organization.masterAdmin.email, PASSWORD);
    await enterCode(page, app.nextCode());
    const requirement = page.getByRole('region', { name: 'Two-factor sign-in' });
    const checkbox = requirement.getByRole('checkbox', {
      name: /Require two-factor sign-in for admins and master admins/,
    });
    await expect(checkbox).not.toBeChecked();
    // Ticked once the server has changed the rule (a controlled box: it shows the saved state).
    await checkbox.click();
    await expect(checkbox).toBeChecked();
  });

  const adminContext = await browser.newContext({ baseURL: baseURL! });
  const adminPage = await adminContext.newPage();
  await test.step('the admin is led to set it up before anything else', async () => {
    await adminPage.goto('/users');
    await signInThroughForm(adminPage, admin.email, PASSWORD);
    await expect(
      adminPage.getByRole('heading', { name: 'Set up two-factor sign-in' }),
    ).toBeVisible();
    await expect(
      adminPage.getByText(
        'Your organization requires two-factor sign-in for admins. Set it up to continue.',
      ),
    ).toHaveRole('status');
    // Without it, the database refuses the admin's requests, whatever the app shows.
    const refused = await admin.api.from('user_profiles').select('id');
    expect(refused.error?.message).toBe(
      'Two-factor sign-in is required for admins of this organization',
    );

    const app = await scanSecret(adminPage);
    await enterCode(adminPage, app.currentCode());
    await expect(adminPage.getByRole('heading', { name: 'User Management' })).toBeVisible();
    await expect(memberRow(adminPage, organization.masterAdmin.email)).toBeVisible();
  });

  await test.step('the admin lost their phone: the master admin removes the second factor', async () => {
    await page.reload();
    const row = memberRow(page, admin.email);
    await row.getByRole('button', { name: `Remove two-factor ${admin.email}` }).click();
    await confirm(page, `Remove the two-factor sign-in of ${admin.email}?`, 'Remove');
    await expect(
      row.getByRole('button', { name: `Remove two-factor ${admin.email}` }),
    ).toBeHidden();

    // Their sessions are ended (an access token already issued lives on until it expires, as
    // on Supabase); signing in on the new phone leads to the set-up once more.
    const refreshed = await admin.api.auth.refreshSession();
    expect(refreshed.error?.message).toMatch(/Refresh Token/i);
    await adminContext.close();
    const newPhone = await browser.newPage({ baseURL: baseURL! });
    await newPhone.goto('/');
    await signInThroughForm(newPhone, admin.email, PASSWORD);
    await expect(
      newPhone.getByRole('heading', { name: 'Set up two-factor sign-in' }),
    ).toBeVisible();
    await newPhone.close();
  });

  await test.step('the Activity page names the member whose second factor was removed', async () => {
    await page.goto('/activity');
    await expect(
      page
        .getByRole('list', { name: 'Activity' })
        .getByText('Removed the two-factor sign-in of Naomi Reed'),
    ).toBeVisible();
  });
});
