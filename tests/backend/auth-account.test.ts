import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganisation, profileOf } from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PASSWORD, authRequest, uniqueEmail } from './auth-helpers.ts';

// Changing one's e-mail address through unmodified supabase-js: `updateUser({ email })` sends
// a link to the new address through a real SMTP server started here; the address changes only
// when that link (or its code) is used.

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
      JOB_POLL_INTERVAL: '1h',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function lastMailTo(email: string) {
  await server.jobs.runDue();
  const messages = smtp.received.filter(({ envelope }) => envelope.to.includes(email));
  expect(messages.length).toBeGreaterThan(0);
  const mail = messages.at(-1)!.mail;
  const text = mail.text ?? '';
  const url = new URL(/Confirm the new address: (\S+)/.exec(text)![1]!);
  const code = /enter this code: (\d{6})/.exec(text)![1]!;
  return { mail, url, code };
}

describe('changing the e-mail address', () => {
  it('keeps the old address until the link sent to the new one is used', async () => {
    const church = await createOrganisation(server, 'Change Church');
    const member = await addMember(server, church, 'user', 'mover');
    const newEmail = uniqueEmail('moved');
    const before = smtp.received.length;

    const { data, error } = await member.client.auth.updateUser({ email: newEmail });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(member.email);
    expect(data.user?.new_email).toBe(newEmail);

    const { mail, url } = await lastMailTo(newEmail);
    // Only the new address gets a message.
    expect(smtp.received.slice(before).map(({ envelope }) => envelope.to)).toEqual([[newEmail]]);
    expect(mail.subject).toBe('Confirm your new e-mail address for Steward');
    expect(`${url.origin}${url.pathname}`).toBe(`${SITE}/confirm-email`);
    expect(url.searchParams.get('type')).toBe('email_change');

    // Not yet: the old address still signs in.
    expect((await profileOf(server, member.userId)).email).toBe(member.email);
    const verified = await server.anon().auth.verifyOtp({
      token_hash: url.searchParams.get('token_hash')!,
      type: 'email_change',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(newEmail);
    expect(verified.data.user?.new_email).toBeUndefined();

    expect((await profileOf(server, member.userId)).email).toBe(newEmail);
    const byNew = await server
      .anon()
      .auth.signInWithPassword({ email: newEmail, password: PASSWORD });
    expect(byNew.error).toBeNull();
    const byOld = await server
      .anon()
      .auth.signInWithPassword({ email: member.email, password: PASSWORD });
    expect(byOld.error?.code).toBe('invalid_credentials');

    const replay = await server.anon().auth.verifyOtp({
      token_hash: url.searchParams.get('token_hash')!,
      type: 'email_change',
    });
    expect(replay.error?.code).toBe('otp_expired');
  });

  it('accepts the code sent to the new address', async () => {
    const church = await createOrganisation(server, 'Code Church');
    const newEmail = uniqueEmail('coded');
    expect((await church.master.client.auth.updateUser({ email: newEmail })).error).toBeNull();
    const { code } = await lastMailTo(newEmail);
    const verified = await server
      .anon()
      .auth.verifyOtp({ email: newEmail, token: code, type: 'email_change' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(newEmail);
  });

  it('refuses an address that another account has', async () => {
    const church = await createOrganisation(server, 'Taken Church');
    const other = await createOrganisation(server, 'Other Church');
    const { error } = await church.master.client.auth.updateUser({ email: other.master.email });
    expect(error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('signs out every other session on request', async () => {
    const church = await createOrganisation(server, 'Sessions Church');
    const elsewhere = server.anon();
    const { data } = await elsewhere.auth.signInWithPassword({
      email: church.master.email,
      password: PASSWORD,
    });
    const { error } = await church.master.client.auth.signOut({ scope: 'others' });
    expect(error).toBeNull();
    expect((await church.master.client.auth.getUser()).error).toBeNull();
    const stale = await authRequest(server, '/token?grant_type=refresh_token', {
      body: { refresh_token: data.session!.refresh_token },
    });
    expect(stale.status).toBe(400);
  });
});
