import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PASSWORD, authRequest, uniqueEmail } from './auth-helpers.ts';

// E-mail confirmation of new sign-ups, as GoTrue does with `mailer_autoconfirm` off: with SMTP
// configured and `[auth.email] enable_confirmations` on, a sign-up gets no session but a link
// (through a real SMTP server started here), and cannot sign in until it is used. Invitation
// acceptances are exempt: the invitation proved the address.

const SITE = 'https://office.example.org';

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({
    env: {
      SMTP_URL: smtp.url,
      SMTP_ADMIN_EMAIL: 'office@grace.example.org',
      AUTH_SITE_URL: SITE,
      AUTH_EMAIL_ENABLE_CONFIRMATIONS: 'true',
      JOB_POLL_INTERVAL: '1h',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('e-mail confirmation of new sign-ups', () => {
  it('sends a link; the account signs in only after it is used', async () => {
    const settings = await authRequest(server, '/settings');
    expect(settings.body).toMatchObject({ mailer_autoconfirm: false });

    const email = uniqueEmail('newcomer');
    const { data, error } = await server.anon().auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.email_confirmed_at).toBeUndefined();

    // A made-up invitation token does not skip the confirmation.
    const pretender = await server.anon().auth.signUp({
      email: uniqueEmail('pretender'),
      password: PASSWORD,
      options: { data: { invitation_token: 'made-up' } },
    });
    expect(pretender.error).toBeNull();
    expect(pretender.data.session).toBeNull();

    const early = await server.anon().auth.signInWithPassword({ email, password: PASSWORD });
    expect(early.error).toMatchObject({
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });

    await server.jobs.runDue();
    const mail = smtp.received.filter(({ envelope }) => envelope.to.includes(email)).at(-1)!.mail;
    expect(mail.subject).toBe('Confirm your Steward account');
    const url = new URL(/Confirm your e-mail address: (\S+)/.exec(mail.text ?? '')![1]!);
    expect(`${url.origin}${url.pathname}`).toBe(`${SITE}/confirm-email`);
    expect(url.searchParams.get('type')).toBe('signup');

    const verified = await server.anon().auth.verifyOtp({
      token_hash: url.searchParams.get('token_hash')!,
      type: 'signup',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();
    const later = await server.anon().auth.signInWithPassword({ email, password: PASSWORD });
    expect(later.error).toBeNull();
  });

  it('signs an invited person in at once: the invitation proved the address', async () => {
    // The organisation's creator is confirmed by the service role, as an operator would.
    const master = uniqueEmail('master');
    const created = await server.service().auth.admin.createUser({
      email: master,
      password: PASSWORD,
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    const client = server.anon();
    expect(
      (await client.auth.signInWithPassword({ email: master, password: PASSWORD })).error,
    ).toBeNull();
    expect((await client.rpc('create_organization', { name: 'Confirm Church' })).error).toBeNull();
    const email = uniqueEmail('invitee');
    const invitation = await client
      .rpc('invite_user', { email, role: 'user', full_name: null })
      .single<{ token: string }>();
    expect(invitation.error).toBeNull();

    const { data, error } = await server.anon().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { invitation_token: invitation.data!.token } },
    });
    expect(error).toBeNull();
    expect(data.session).not.toBeNull();
    expect(data.user?.email_confirmed_at).toBeTruthy();
  });
});
