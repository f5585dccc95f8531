import { expect } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import type { Mailbox, ReceivedMail } from './account-server.ts';
import { apiClient, uniqueEmail } from './api.ts';
import { test as common } from './test.ts';

export const PASSWORD = 'correct horse battery staple';

type Api = Awaited<ReturnType<typeof apiClient>>;

/**
 * The account specs' `test`: `baseURL` is the address of the run's account server, whose e-mail
 * `mail` reads (both from ./test.ts; support/account-server.ts).
 */
export const test = common.extend({
  baseURL: async ({ accountServerUrl }, use) => use(accountServerUrl),
});

/** The e-mail to `to` whose subject is `subject`, once it has arrived (the newest such). */
export async function mailTo(mail: Mailbox, to: string, subject: string, after = 0) {
  let found: ReceivedMail['mail'] | undefined;
  await expect
    .poll(
      () => {
        const matching = mail.received
          .slice(after)
          .filter((m) => m.envelope.to.includes(to) && m.mail.subject === subject);
        found = matching.at(-1)?.mail;
        return found !== undefined;
      },
      { message: `an e-mail "${subject}" to ${to}` },
    )
    .toBe(true);
  return found!;
}

/** The link of an account e-mail to one of the app's pages (`/reset-password?…`). */
export function linkIn(message: ReceivedMail['mail'], baseURL: string, page: string): string {
  const escaped = `${baseURL}${page}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const link = new RegExp(`${escaped}\\?\\S+`).exec(message.text ?? '')?.[0];
  if (!link) throw new Error(`no link to ${page} in:\n${message.text}`);
  return link;
}

/**
 * A new person whose address is confirmed, with a supabase-js client signed in as them: signed
 * up through the API, then confirmed with the link of the e-mail the server sent.
 */
export async function confirmedPerson(baseURL: string, mail: Mailbox, label: string) {
  const email = uniqueEmail(label);
  const api = await apiClient(baseURL);
  const signUp = await api.auth.signUp({ email, password: PASSWORD });
  if (signUp.error) throw signUp.error;
  expect(signUp.data.session, 'a sign-up waits for its confirmation').toBeNull();
  const link = new URL(
    linkIn(await mailTo(mail, email, 'Confirm your Steward account'), baseURL, '/confirm-email'),
  );
  const { error } = await api.auth.verifyOtp({
    token_hash: link.searchParams.get('token_hash')!,
    type: 'signup',
  });
  if (error) throw error;
  return { email, api };
}

/** A new organisation created through the API by a new confirmed person, its master admin. */
export async function organizationWithMasterAdmin(baseURL: string, mail: Mailbox) {
  const masterAdmin = await confirmedPerson(baseURL, mail, 'master');
  const name = `Grace Chapel ${Date.now().toString(36)}`;
  const { data, error } = await masterAdmin.api.rpc('create_organization', { name });
  if (error) throw new Error(error.message);
  return { id: (data as unknown as { id: string }).id, name, masterAdmin };
}

/** A member of the organisation of `masterAdmin` with `role`, joined through an invitation. */
export async function invitedMember(
  baseURL: string,
  masterAdmin: { api: Api },
  role: 'user' | 'admin',
  fullName: string,
) {
  const email = uniqueEmail(role);
  const invite = await masterAdmin.api.rpc('invite_user', { email, role, full_name: fullName });
  if (invite.error) throw new Error(invite.error.message);
  const { token } = invite.data as unknown as { token: string };
  const api = await apiClient(baseURL);
  // The invitation proved the address: no confirmation e-mail, a session at once.
  const signUp = await api.auth.signUp({
    email,
    password: PASSWORD,
    options: { data: { invitation_token: token } },
  });
  if (signUp.error || !signUp.data.session) throw signUp.error ?? new Error('no session');
  const accepted = await api.rpc('accept_invitation', { token });
  if (accepted.error) throw new Error(accepted.error.message);
  return { email, api };
}

/** The codes of an authenticator app holding `secret` (the key the set-up screen shows). */
export function authenticator(secret: string) {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret.replace(/\s+/g, '')) });
  return {
    /**
     * The code of the next 30-second step: a code is accepted once, and the one of the step a
     * factor was just verified with would be refused as a replay. The server accepts one step
     * of clock drift, so the next step's code is valid now.
     */
    nextCode: () => totp.generate({ timestamp: Date.now() + totp.period * 1000 }),
    currentCode: () => totp.generate(),
    /** A code the server refuses now: none of the three steps it accepts. */
    wrongCode: () => {
      const valid = [-1, 0, 1].map((step) =>
        totp.generate({ timestamp: Date.now() + step * totp.period * 1000 }),
      );
      return ['000000', '111111', '222222', '333333'].find((code) => !valid.includes(code))!;
    },
  };
}
