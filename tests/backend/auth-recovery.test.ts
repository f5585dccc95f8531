import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganisation } from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PASSWORD, authRequest, jwtPayload, uniqueEmail } from './auth-helpers.ts';

// Forgotten passwords through unmodified supabase-js: `resetPasswordForEmail` e-mails a link
// (and a code) through a real SMTP server started here, `verifyOtp` or the link itself turns it
// into a recovery session, and `updateUser` sets the new password.

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
      // The test runs due jobs itself.
      JOB_POLL_INTERVAL: '1h',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function newUser(label: string): Promise<{ email: string; id: string }> {
  const email = uniqueEmail(label);
  const { data, error } = await server.anon().auth.signUp({ email, password: PASSWORD });
  if (error) throw error;
  return { email, id: data.user!.id };
}

/** Runs the due jobs and returns the messages they sent to `email`. */
async function mailTo(email: string) {
  await server.jobs.runDue();
  return smtp.received.filter(({ envelope }) => envelope.to.includes(email));
}

/** The link and code of the last message to `email`. */
async function recoveryMail(email: string): Promise<{ url: URL; code: string; text: string }> {
  const messages = await mailTo(email);
  expect(messages.length).toBeGreaterThan(0);
  const text = messages.at(-1)!.mail.text ?? '';
  const link = /(https?:\/\/\S+)/.exec(text.slice(text.indexOf(': http') + 2))![1]!;
  const code = /enter this code: (\d{6})/.exec(text)![1]!;
  return { url: new URL(link), code, text };
}

async function signInWorks(email: string, password: string): Promise<boolean> {
  const { error } = await server.anon().auth.signInWithPassword({ email, password });
  return error === null;
}

describe('forgotten passwords', () => {
  it('e-mails a link that starts a recovery session once, in which a new password is set', async () => {
    const { email, id } = await newUser('forgot');
    const { data, error } = await server.anon().auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    expect(data).toEqual({});

    const { url, text } = await recoveryMail(email);
    const message = (await mailTo(email)).at(-1)!.mail;
    expect(message.subject).toBe('Reset your Steward password');
    expect(message.html).toContain('Choose a new password');
    expect(text).toContain('The link works once, for 60 minutes.');
    expect(`${url.origin}${url.pathname}`).toBe(`${SITE}/reset-password`);
    expect(url.searchParams.get('type')).toBe('recovery');
    const tokenHash = url.searchParams.get('token_hash')!;

    // Only a digest of the link's secret is stored.
    const stored = await server.db
      .serverWork()
      .query<{ token_hash: string }>(
        `select token_hash from auth.one_time_tokens where user_id = $1`,
        [id],
      );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]!.token_hash).not.toContain(tokenHash);

    const client = server.anon();
    const verified = await client.auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect(verified.data.user!.id).toBe(id);
    const claims = jwtPayload(verified.data.session!.access_token);
    expect(claims).toMatchObject({ sub: id, aal: 'aal1' });
    expect((claims.amr as { method: string }[])[0]!.method).toBe('recovery');

    // A recovery session sets the password without the old one.
    const updated = await client.auth.updateUser({ password: 'a brand new secret' });
    expect(updated.error).toBeNull();
    expect(await signInWorks(email, 'a brand new secret')).toBe(true);
    expect(await signInWorks(email, PASSWORD)).toBe(false);

    // The link works once.
    const again = await server.anon().auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(again.error?.status).toBe(403);
    expect(again.error?.code).toBe('otp_expired');
    expect(again.error?.message).toBe('Email link is invalid or has expired');
  });

  it('answers the same for an address without an account, and sends nothing', async () => {
    const before = smtp.received.length;
    const email = uniqueEmail('nobody');
    const { data, error } = await server.anon().auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    expect(data).toEqual({});
    await server.jobs.runDue();
    expect(smtp.received.length).toBe(before);
  });

  it('accepts the e-mailed code instead of the link, and voids it after five wrong codes', async () => {
    const { email, id } = await newUser('code');
    await server.anon().auth.resetPasswordForEmail(email);
    const { code } = await recoveryMail(email);
    const wrong = code === '000000' ? '000001' : '000000';
    const client = server.anon();
    const failed = await client.auth.verifyOtp({ email, token: wrong, type: 'recovery' });
    expect(failed.error?.code).toBe('otp_expired');
    expect(failed.error?.message).toBe('Token has expired or is invalid');
    const ok = await client.auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(ok.error).toBeNull();
    expect(ok.data.user!.id).toBe(id);

    const other = await newUser('guessed');
    // The per-address limit allows one e-mail a minute; this user's first.
    await server.anon().auth.resetPasswordForEmail(other.email);
    const sent = await recoveryMail(other.email);
    const wrongCode = sent.code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i += 1) {
      const attempt = await server
        .anon()
        .auth.verifyOtp({ email: other.email, token: wrongCode, type: 'recovery' });
      expect(attempt.error?.code).toBe('otp_expired');
    }
    const late = await server
      .anon()
      .auth.verifyOtp({ email: other.email, token: sent.code, type: 'recovery' });
    expect(late.error?.code).toBe('otp_expired');
  });

  it('ends every earlier link when the password is changed', async () => {
    const { email } = await newUser('changed');
    await server.anon().auth.resetPasswordForEmail(email);
    const { url, code } = await recoveryMail(email);

    // The owner changes the password as usual, in a session of their own.
    const client = server.anon();
    await client.auth.signInWithPassword({ email, password: PASSWORD });
    const changed = await client.auth.updateUser({
      password: 'a password of my own',
      current_password: PASSWORD,
    });
    expect(changed.error).toBeNull();

    const byLink = await server.anon().auth.verifyOtp({
      token_hash: url.searchParams.get('token_hash')!,
      type: 'recovery',
    });
    expect(byLink.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const byCode = await server.anon().auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(byCode.error).toMatchObject({ status: 403, code: 'otp_expired' });
    expect(await signInWorks(email, 'a password of my own')).toBe(true);
  });

  it('makes no link after a password change for a request made before it', async () => {
    const { email } = await newUser('raced');
    const client = server.anon();
    await client.auth.signInWithPassword({ email, password: PASSWORD });
    const before = (await mailTo(email)).length;
    // The e-mail is written by a job; here it has not run yet when the password changes.
    await server.jobs.stop();
    try {
      expect((await server.anon().auth.resetPasswordForEmail(email)).error).toBeNull();
      const changed = await client.auth.updateUser({
        password: 'changed in the meantime',
        current_password: PASSWORD,
      });
      expect(changed.error).toBeNull();
    } finally {
      server.jobs.start();
    }
    expect((await mailTo(email)).length).toBe(before);
    const stored = await server.db.serverWork().query(
      `select 1 from auth.one_time_tokens t join auth.users u on u.id = t.user_id
        where u.email = $1`,
      [email],
    );
    expect(stored.rows).toEqual([]);
  });

  it('refuses a link older than an hour', async () => {
    const { email, id } = await newUser('late');
    await server.anon().auth.resetPasswordForEmail(email);
    const { url } = await recoveryMail(email);
    await server.db.serverWork().query(
      `update auth.one_time_tokens set created_at = now() - interval '61 minutes'
        where user_id = $1`,
      [id],
    );
    const { error } = await server.anon().auth.verifyOtp({
      token_hash: url.searchParams.get('token_hash')!,
      type: 'recovery',
    });
    expect(error?.code).toBe('otp_expired');
  });

  it("follows GoTrue's link to redirect_to with the session, or with the error", async () => {
    const { email } = await newUser('redirect');
    const { error } = await server
      .anon()
      .auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/after-reset` });
    expect(error).toBeNull();
    const { url } = await recoveryMail(email);
    expect(`${url.origin}${url.pathname}`).toBe(`${server.url}/auth/v1/verify`);
    expect(url.searchParams.get('type')).toBe('recovery');

    const first = await fetch(url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const location = new URL(first.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${SITE}/after-reset`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('recovery');
    expect(fragment.get('token_type')).toBe('bearer');
    const { data } = await server.anon().auth.getUser(fragment.get('access_token')!);
    expect(data.user?.email).toBe(email);

    const second = await fetch(url, { redirect: 'manual' });
    const failed = new URL(second.headers.get('location')!);
    const failure = new URLSearchParams(failed.hash.slice(1));
    expect(failure.get('error_code')).toBe('otp_expired');
    expect(failure.has('access_token')).toBe(false);
  });

  it('limits requests per address alike whether or not it has an account', async () => {
    const { email } = await newUser('limit');
    const unknown = uniqueEmail('limit-nobody');
    for (const address of [email, unknown]) {
      expect((await authRequest(server, '/recover', { body: { email: address } })).status).toBe(
        200,
      );
      const second = await authRequest(server, '/recover', { body: { email: address } });
      expect(second.status).toBe(429);
      expect(second.body).toMatchObject({ code: 'over_email_send_rate_limit' });
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('refuses a malformed request with GoTrue errors', async () => {
    const missing = await authRequest(server, '/recover', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      code: 'validation_failed',
      message: 'Password recovery requires an email',
    });
    const noType = await authRequest(server, '/verify', { body: { token_hash: 'x' } });
    expect(noType.status).toBe(400);
    const both = await authRequest(server, '/verify', {
      body: { type: 'recovery', token_hash: 'x', token: '123456', email: 'a@example.test' },
    });
    expect(both.status).toBe(400);
    const unknownType = await authRequest(server, '/verify', {
      body: { type: 'sms', token_hash: 'x' },
    });
    expect(unknownType.status).toBe(400);
    const garbage = await authRequest(server, '/verify', {
      body: { type: 'recovery', token_hash: 'not a token' },
    });
    expect(garbage.status).toBe(403);
    expect(garbage.body).toMatchObject({ code: 'otp_expired' });
  });

  it('lets an admin send a member of their organisation a reset link, to the member only', async () => {
    const church = await createOrganisation(server, 'Reset Church');
    const member = await addMember(server, church, 'user', 'volunteer');
    const admin = await addMember(server, church, 'admin', 'office');
    const before = smtp.received.length;
    const { data, error } = await admin.client.rpc('send_password_reset', {
      user_id: member.userId,
    });
    expect(error).toBeNull();
    expect(data).toBe('queued');
    const again = await admin.client.rpc('send_password_reset', { user_id: member.userId });
    expect(again.error?.message).toBe(
      'A reset link was sent to this member less than a minute ago',
    );
    const refused = await member.client.rpc('send_password_reset', { user_id: admin.userId });
    expect(refused.error?.message).toBe('Insufficient permissions to send password reset links');

    const { url } = await recoveryMail(member.email);
    // Only mail to this organisation's people: an earlier test's mail may still arrive meanwhile.
    const people = [member.email, admin.email, church.master.email];
    expect(
      smtp.received
        .slice(before)
        .map(({ envelope }) => envelope.to)
        .filter((to) => to.some((address) => people.includes(address))),
    ).toEqual([[member.email]]);
    const client = server.anon();
    const verified = await client.auth.verifyOtp({
      token_hash: url.searchParams.get('token_hash')!,
      type: 'recovery',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user!.id).toBe(member.userId);
  });

  it("makes GoTrue's recovery link for the service role (admin.generateLink)", async () => {
    const { email, id } = await newUser('generated');
    const { data, error } = await server.service().auth.admin.generateLink({
      type: 'recovery',
      email,
    });
    expect(error).toBeNull();
    expect(data.user?.id).toBe(id);
    expect(data.properties?.verification_type).toBe('recovery');
    expect(data.properties?.email_otp).toMatch(/^\d{6}$/);
    const link = new URL(data.properties!.action_link);
    expect(link.searchParams.get('token')).toBe(data.properties!.hashed_token);
    const verified = await server
      .anon()
      .auth.verifyOtp({ token_hash: data.properties!.hashed_token, type: 'recovery' });
    expect(verified.error).toBeNull();

    const anon = await server.anon().auth.admin.generateLink({ type: 'recovery', email });
    expect(anon.error?.status).toBe(403);
  });
});
