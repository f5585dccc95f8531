import { expect } from '@playwright/test';
import { uniqueEmail } from './support/api.ts';
import { mailTo, organizationWithMasterAdmin, PASSWORD, test } from './support/accounts.ts';

// No relay (issue 22, R8), as an admin meets it, against the server that sends its e-mail
// through SMTP (support/accounts.ts): a new organisation may e-mail 20 recipients an hour.

const NEW_ORGANIZATION_LIMIT = 20;

test('an admin of a new organisation reaches its e-mail limit, is told so, and invites without e-mail', async ({
  page,
  baseURL,
  mail,
}) => {
  const { name, masterAdmin } = await organizationWithMasterAdmin(baseURL!, mail);
  const first = uniqueEmail('first');
  await test.step('the hour’s invitations go out by e-mail', async () => {
    for (let n = 0; n < NEW_ORGANIZATION_LIMIT; n += 1) {
      const email = n === 0 ? first : uniqueEmail('invitee');
      const { data, error } = await masterAdmin.api.rpc('invite_user_by_email', {
        email,
        role: 'user',
        full_name: '',
      });
      expect(error).toBeNull();
      expect((data as unknown as { mail_status: string }).mail_status).toBe('queued');
    }
    await mailTo(mail, first, `You are invited to join ${name}`);
  });

  await page.goto('/');
  await page.getByLabel('Email address').fill(masterAdmin.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('link', { name: 'Users' }).first().click();
  await page.getByRole('button', { name: 'Invite User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite User' });

  await test.step('one more by e-mail is refused with the limit and the way out', async () => {
    await dialog.getByLabel('Email address').fill(uniqueEmail('one-too-many'));
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    // A failed action is a notice among the notifications (src/README.md), not a dialog.
    const notices = page.getByRole('log', { name: 'Notifications' });
    await expect(notices.getByText(/^Failed to send invitation/)).toHaveText(
      new RegExp(
        `^Failed to send invitation: Your organization has reached its limit of ${NEW_ORGANIZATION_LIMIT} e-mail recipients an hour \\(a new organization's limit, for its first days\\)\\. Please try again in \\d+ minutes?\\. You can still invite without e-mail and share the link yourself\\.$`,
      ),
    );
  });

  await test.step('without e-mail the invitation is made, with its link', async () => {
    await dialog.getByLabel('Send invitation by e-mail').uncheck();
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await expect(dialog.getByText('Invitation sent successfully!')).toBeVisible();
    await expect(dialog.getByLabel('Invitation link')).toHaveValue(/\/invite\/[0-9a-f]{64}$/);
    await dialog.getByRole('button', { name: 'Done' }).click();
  });

  await test.step('inviting the first address again gives a new link, not a second e-mail', async () => {
    await page.getByRole('button', { name: 'Invite User' }).click();
    await dialog.getByLabel('Email address').fill(first);
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await expect(dialog.getByText('Invitation sent successfully!')).toBeVisible();
    await expect(dialog.getByText(/not e-mailed again/)).toHaveText(
      'An invitation was e-mailed to them a short while ago, so it was not e-mailed again, and the link in that e-mail no longer works. Share this new link yourself.',
    );
    const { data } = await masterAdmin.api
      .from('outbox_messages')
      .select('id')
      .contains('recipients', [first]);
    expect(data).toHaveLength(1);
  });
});
