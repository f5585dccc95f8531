import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import type { AppSupabaseClient } from '../../lib/supabase.ts';
import {
  addMember,
  createOrganization,
  newClient,
  TEST_PASSWORD,
  type TestUser,
} from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { INVALID_RECOVERY_CODE } from './api/recovery-codes.ts';
import { INVALID_CODE } from './api/two-factor.ts';
import { TWO_FACTOR_ON } from './components/two-factor-settings.tsx';
import { TWO_FACTOR_REQUIRED } from './two-factor-screens.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

const nav = () => screen.getByRole('navigation', { name: 'Main' });

/** The code an authenticator app shows for `secret`, `offsetSteps` steps from now. */
function codeFor(secret: string, offsetSteps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), period: 30 });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/** Enrols a factor through the API (as another device did), returning its secret. */
async function enrolThroughApi(client: AppSupabaseClient): Promise<string> {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp' });
  if (error) throw error;
  const verified = await client.auth.mfa.challengeAndVerify({
    factorId: data.id,
    code: codeFor(data.totp.secret),
  });
  if (verified.error) throw verified.error;
  return data.totp.secret;
}

async function passwordSession(person: TestUser): Promise<AppSupabaseClient> {
  const client = newClient();
  const { error } = await client.auth.signInWithPassword({
    email: person.email,
    password: TEST_PASSWORD,
  });
  if (error) throw error;
  return client;
}

async function typeCode(code: string) {
  const user = userEvent.setup();
  const input = await screen.findByLabelText('Authentication code');
  await user.clear(input);
  await user.type(input, code);
  await user.click(screen.getByRole('button', { name: 'Verify' }));
}

describe('two-factor sign-in', () => {
  it(
    'is set up from the profile dialog with the QR code or its key',
    { timeout: 60_000 },
    async () => {
      const user = userEvent.setup();
      const organization = await createOrganization();
      const member = await addMember(organization, 'user');
      renderApp({ client: member.client, route: '/' });
      await user.click(
        await within(await screen.findByRole('navigation', { name: 'Main' })).findByRole('button', {
          name: 'Edit profile',
        }),
      );
      const dialog = await screen.findByRole('dialog', { name: 'Your profile' });
      await user.click(
        await within(dialog).findByRole('button', { name: 'Set up two-factor sign-in' }),
      );
      expect(
        await within(dialog).findByAltText('QR code for your authenticator app'),
      ).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/));
      const secret = within(dialog).getByTestId('totp-secret').textContent!;
      await typeCode('000000' === codeFor(secret) ? '111111' : '000000');
      expect(await within(dialog).findByText(INVALID_CODE)).toBeInTheDocument();
      await typeCode(codeFor(secret));
      expect(await within(dialog).findByText(/Two-factor sign-in is on\./)).toBeInTheDocument();
      const { data } = await member.client.auth.mfa.getAuthenticatorAssuranceLevel();
      expect(data?.currentLevel).toBe('aal2');
      expect(screen.getAllByText(TWO_FACTOR_ON).length).toBeGreaterThan(0);
    },
  );

  it(
    'gives recovery codes in the profile dialog; one signs in once when the phone is lost',
    { timeout: 60_000 },
    async () => {
      const user = userEvent.setup();
      const organization = await createOrganization();
      const member = await addMember(organization, 'user');
      await enrolThroughApi(member.client);
      const view = renderApp({ client: member.client, route: '/' });
      await user.click(
        await within(await screen.findByRole('navigation', { name: 'Main' })).findByRole('button', {
          name: 'Edit profile',
        }),
      );
      const dialog = await screen.findByRole('dialog', { name: 'Your profile' });
      await user.click(await within(dialog).findByRole('button', { name: 'Make recovery codes' }));
      const list = await within(dialog).findByRole('list', { name: 'Recovery codes' });
      const codes = within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent!);
      expect(codes).toHaveLength(10);
      view.unmount();

      // The phone is lost: the password, then a recovery code instead of the app's.
      const client = await passwordSession(member);
      renderApp({ client, route: '/' });
      await user.click(
        await screen.findByRole('button', { name: 'Lost your phone? Use a recovery code' }),
      );
      await user.type(screen.getByLabelText('Recovery code'), 'aaaa-bbbb-cccc');
      await user.click(screen.getByRole('button', { name: 'Use recovery code' }));
      expect(await screen.findByText(INVALID_RECOVERY_CODE)).toBeInTheDocument();
      await user.type(screen.getByLabelText('Recovery code'), codes[0]!);
      await user.click(screen.getByRole('button', { name: 'Use recovery code' }));
      await waitFor(() => expect(nav()).toBeInTheDocument());
      // Spent: the same code does not work again.
      const again = await passwordSession(member);
      const { data } = await again.rpc('redeem_recovery_code', { code: codes[0]! });
      expect(data).toBe(-1);
    },
  );

  it('asks for a code after the password, before anything else', { timeout: 60_000 }, async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const secret = await enrolThroughApi(member.client);
    const client = await passwordSession(member);
    renderApp({ client, route: '/' });
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    // The next step's code: the enrolment used this step's.
    await typeCode(codeFor(secret, 1));
    await waitFor(() => expect(nav()).toBeInTheDocument());
  });

  it(
    'leads an admin to set it up when the organisation requires it',
    { timeout: 60_000 },
    async () => {
      const organization = await createOrganization();
      const admin = await addMember(organization, 'admin');
      await enrolThroughApi(organization.masterAdmin.client);
      const on = await organization.masterAdmin.client.rpc('set_two_factor_requirement', {
        required: true,
      });
      expect(on.error).toBeNull();

      renderApp({ client: await passwordSession(admin), route: '/users' });
      expect(
        await screen.findByRole('heading', { name: 'Set up two-factor sign-in' }),
      ).toBeInTheDocument();
      expect(screen.getByText(TWO_FACTOR_REQUIRED)).toBeInTheDocument();
      const secret = (await screen.findByTestId('totp-secret')).textContent!;
      await typeCode(codeFor(secret));
      expect(await screen.findByRole('heading', { name: 'User Management' })).toBeInTheDocument();
    },
  );
});
