import { uniqueEmail } from './support/api.ts';
import { serviceClient } from './support/oauth.ts';
import {
  confirm,
  memberRow,
  PASSWORD,
  signedInApi,
  signUpThroughForm,
  visibleOrganizationData,
} from './support/team.ts';
import { expect, test } from './support/test.ts';

// The team journey of issue 4: a founder sets up an organisation, invites a colleague, changes
// their role, deactivates and reactivates them; invitation links that cannot be used.
test('a new organisation and its team, from sign-up to deactivation', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const founderEmail = uniqueEmail('founder');
  const colleagueEmail = uniqueEmail('colleague');
  const organizationName = `Grace Chapel ${Date.now().toString(36)}`;
  let organizationId = '';
  let invitationLink = '';

  await test.step('the founder signs up and creates the organisation', async () => {
    await signUpThroughForm(page, founderEmail);
    await expect(page.getByRole('heading', { name: 'Set up your organization' })).toBeVisible();
    await page.getByRole('link', { name: 'Set Up Organization' }).click();
    await expect(page).toHaveURL(/\/users$/);
    await page.getByLabel('Organization Name').fill(organizationName);
    await page.getByRole('button', { name: 'Create Organization' }).click();
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByText('Master Admin')).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Users' })).toBeVisible();

    const founder = await signedInApi(baseURL!, founderEmail);
    const { organizations } = await visibleOrganizationData(founder);
    expect(organizations).toEqual([{ id: expect.any(String), name: organizationName }]);
    organizationId = organizations[0]!.id;
  });

  await test.step('the founder invites a colleague as Admin', async () => {
    await page.getByRole('button', { name: 'Invite User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite User' });
    await expect(dialog).toContainText(`The invited user will join ${organizationName}.`);
    await dialog.getByLabel('Email address').fill(colleagueEmail);
    await dialog.getByLabel('Full name (optional)').fill('Naomi Reed');
    await dialog.getByLabel('Role').selectOption('admin');
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await expect(dialog.getByText('Invitation created. It was not e-mailed.')).toBeVisible();
    invitationLink = await dialog.getByLabel('Invitation link').inputValue();
    expect(invitationLink).toMatch(new RegExp(`^${baseURL}/invite/[0-9a-f]{64}$`));
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('heading', { name: 'Pending Invitations' })).toBeVisible();
    // Invited as Admin, by the founder (who has no name yet, so their e-mail stands in).
    await expect(memberRow(page, colleagueEmail)).toContainText(`Admin${founderEmail}`);
  });

  // The colleague uses a phone: a second browser context, 375 px wide.
  const colleagueContext = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const phone = await colleagueContext.newPage();

  await test.step('the colleague opens the link, sets a password and lands on the dashboard', async () => {
    await phone.goto(invitationLink);
    await expect(phone.getByRole('heading', { name: `Join ${organizationName}` })).toBeVisible();
    await expect(phone.getByText(`${founderEmail} has invited you`)).toBeVisible();
    await expect(phone.getByText(colleagueEmail)).toBeVisible();
    await phone.getByLabel('Create Password').fill(PASSWORD);
    await phone.getByLabel('Confirm Password').fill(PASSWORD);
    await phone.getByRole('button', { name: 'Accept Invitation & Create Account' }).click();
    await expect(phone).toHaveURL(`${baseURL}/`);
    await expect(phone.getByRole('heading', { level: 1, name: organizationName })).toBeVisible();
    await phone.getByRole('button', { name: 'Open menu' }).click();
    // The desktop bar is hidden at this width; only the menu's copy is visible.
    await expect(phone.getByText('Naomi Reed').filter({ visible: true })).toBeVisible();
    await expect(phone.getByText('Admin', { exact: true }).filter({ visible: true })).toBeVisible();
    await expect(phone.getByRole('link', { name: 'Users' })).toBeVisible();

    const colleague = await signedInApi(baseURL!, colleagueEmail);
    const seen = await visibleOrganizationData(colleague);
    expect(seen.organizations).toEqual([{ id: organizationId, name: organizationName }]);
  });

  await test.step('the founder makes the colleague a User', async () => {
    await page.reload();
    const row = memberRow(page, colleagueEmail);
    await expect(row.getByRole('combobox')).toHaveValue('admin');
    await expect(page.getByRole('heading', { name: 'Pending Invitations' })).toBeHidden();
    await row.getByRole('combobox').selectOption('user');
    await expect
      .poll(async () => {
        const founder = await signedInApi(baseURL!, founderEmail);
        const { data } = await founder
          .from('user_profiles')
          .select('role')
          .eq('email', colleagueEmail)
          .single();
        return data?.role;
      })
      .toBe('user');

    await phone.reload();
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await expect(phone.getByText('User', { exact: true }).filter({ visible: true })).toBeVisible();
    await expect(phone.getByRole('link', { name: 'Users' })).toBeHidden();
  });

  await test.step('deactivated, the colleague gets nothing of the organisation', async () => {
    await memberRow(page, colleagueEmail)
      .getByRole('button', { name: /Deactivate/ })
      .click();
    await confirm(page, 'Are you sure you want to deactivate this user?', 'Deactivate');
    await expect(memberRow(page, colleagueEmail)).toContainText('Inactive');

    // Their own requests, from outside the browser.
    const colleague = await signedInApi(baseURL!, colleagueEmail);
    const seen = await visibleOrganizationData(colleague);
    expect(seen.organizations).toEqual([]);
    expect(seen.documents).toEqual([]);
    expect(seen.invitations).toEqual([]);
    expect(seen.profiles).toEqual([{ id: expect.any(String), email: colleagueEmail }]);
    const invite = await colleague.rpc('invite_user', {
      email: uniqueEmail('blocked'),
      role: 'user',
      full_name: '',
    });
    expect(invite.error?.message).toBe('Insufficient permissions to invite users');

    await phone.reload();
    await expect(
      phone.getByRole('heading', { name: 'Your account has been deactivated' }),
    ).toBeVisible();
    await expect(phone.getByRole('heading', { name: organizationName })).toBeHidden();
  });

  await test.step('reactivation restores access', async () => {
    await memberRow(page, colleagueEmail)
      .getByRole('button', { name: /Reactivate/ })
      .click();
    await expect(memberRow(page, colleagueEmail)).toContainText('Active');
    await expect(memberRow(page, colleagueEmail)).not.toContainText('Inactive');

    const colleague = await signedInApi(baseURL!, colleagueEmail);
    const seen = await visibleOrganizationData(colleague);
    expect(seen.organizations).toEqual([{ id: organizationId, name: organizationName }]);
    expect(seen.profiles).toHaveLength(2);

    await phone.reload();
    await expect(phone.getByRole('heading', { level: 1, name: organizationName })).toBeVisible();
  });

  await test.step("the founder's Activity page names the colleague in each change", async () => {
    await page.goto('/activity');
    await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
    for (const change of [
      'Changed the role of Naomi Reed',
      'Deactivated Naomi Reed',
      'Reactivated Naomi Reed',
    ]) {
      await expect(page.getByText(change).first()).toBeVisible();
    }
    await page.goto('/users');
  });

  await test.step('used, expired and unknown invitation links show Invalid Invitation', async () => {
    const stranger = await browser.newContext();
    const visitor = await stranger.newPage();
    const expectInvalid = async (url: string) => {
      await visitor.goto(url);
      await expect(visitor.getByRole('heading', { name: 'Invalid Invitation' })).toBeVisible();
      await expect(visitor.getByText('Invalid or expired invitation')).toBeVisible();
    };

    await expectInvalid(invitationLink);
    await expectInvalid('/invite/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef');

    // An invitation whose seven days have passed (arranged with the service key).
    await page.getByRole('button', { name: 'Invite User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite User' });
    const lateEmail = uniqueEmail('late');
    await dialog.getByLabel('Email address').fill(lateEmail);
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    const lateLink = await dialog.getByLabel('Invitation link').inputValue();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await visitor.goto(lateLink);
    await expect(visitor.getByRole('heading', { name: /^Join / })).toBeVisible();
    const service = await serviceClient(baseURL!);
    const { error } = await service
      .from('user_invitations')
      .update({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .eq('email', lateEmail);
    expect(error).toBeNull();
    await expectInvalid(lateLink);

    await visitor.getByRole('button', { name: 'Go to Login' }).click();
    await expect(visitor.getByRole('heading', { name: 'Sign in to Steward' })).toBeVisible();
    await stranger.close();
  });

  await colleagueContext.close();
});
