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

/** The fields of a JSON value and the kinds of their values, in order, without the values. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).map(([key, inner]) => [key, shape(inner)]);
  }
  return typeof value;
}

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

  it('answers a sign-up for a taken address as it answers a new one', async () => {
    const taken = uniqueEmail('taken');
    const created = await server.service().auth.admin.createUser({
      email: taken,
      password: PASSWORD,
      email_confirm: true,
    });
    expect(created.error).toBeNull();
    const fresh = uniqueEmail('fresh');
    const data = { full_name: 'Pat Doe', church: 'Grace' };

    const forNew = await authRequest(server, '/signup', {
      body: { email: fresh, password: 'their own secret', data },
    });
    const forTaken = await authRequest(server, '/signup', {
      body: { email: taken, password: 'their own secret', data },
    });
    expect(forTaken.status).toBe(forNew.status);
    expect(forNew.status).toBe(200);
    // The same fields, of the same kinds, in the same order, down to the identity.
    expect(shape(forTaken.body)).toEqual(shape(forNew.body));
    expect(forTaken.body).toMatchObject({ email: taken, user_metadata: data });
    expect(forTaken.body!.id).not.toBe(created.data.user!.id);
    expect(
      (await server.db.serverWork().query('select 1 from auth.users where email = $1', [taken]))
        .rows,
    ).toHaveLength(1);

    // Asking again is refused alike for both (one e-mail a minute per address), ...
    const againNew = await authRequest(server, '/signup', {
      body: { email: fresh, password: 'their own secret' },
    });
    const againTaken = await authRequest(server, '/signup', {
      body: { email: taken, password: 'their own secret' },
    });
    expect([againNew.status, againTaken.status]).toEqual([429, 429]);
    expect(againTaken.body!.code).toBe(againNew.body!.code);

    // ... nothing reached the owner, whose password still works and is the only one that does.
    await server.jobs.runDue();
    expect(smtp.received.filter(({ envelope }) => envelope.to.includes(taken))).toEqual([]);
    const owner = await server.anon().auth.signInWithPassword({ email: taken, password: PASSWORD });
    expect(owner.error).toBeNull();
    const stranger = await server
      .anon()
      .auth.signInWithPassword({ email: taken, password: 'their own secret' });
    expect(stranger.error?.code).toBe('invalid_credentials');
  });

  it('sends the link again to an address that signed up and has not confirmed', async () => {
    // A server that lets one address get an e-mail right after another.
    const quick = await startTestServer({
      env: {
        SMTP_URL: smtp.url,
        SMTP_ADMIN_EMAIL: 'office@grace.example.org',
        AUTH_SITE_URL: SITE,
        AUTH_EMAIL_ENABLE_CONFIRMATIONS: 'true',
        AUTH_EMAIL_MAX_FREQUENCY: '1ms',
        JOB_POLL_INTERVAL: '1h',
      },
    });
    try {
      const email = uniqueEmail('twice');
      const first = await quick.anon().auth.signUp({ email, password: PASSWORD });
      const second = await quick.anon().auth.signUp({ email, password: 'another secret' });
      expect(second.error).toBeNull();
      expect(second.data.session).toBeNull();
      expect(second.data.user?.id).toBe(first.data.user?.id);
      await quick.jobs.runDue();
      const links = smtp.received
        .filter(({ envelope }) => envelope.to.includes(email))
        .map(({ mail }) => /Confirm your e-mail address: (\S+)/.exec(mail.text ?? '')![1]!);
      expect(links).toHaveLength(2);
      // The second sign-up changed nothing: the first password is the account's.
      const url = new URL(links[1]!);
      await quick.anon().auth.verifyOtp({
        token_hash: url.searchParams.get('token_hash')!,
        type: 'signup',
      });
      const signIn = await quick.anon().auth.signInWithPassword({ email, password: PASSWORD });
      expect(signIn.error).toBeNull();
    } finally {
      await quick.close();
    }
  });
});
