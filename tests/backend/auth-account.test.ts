import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganisation, profileOf } from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PASSWORD, authRequest, uniqueEmail } from './auth-helpers.ts';

// Changing one's e-mail address through unmodified supabase-js: `updateUser({ email })` sends
// a link to the new address, and (`[auth.email] double_confirm_changes`, on in config.toml) one
// to the current address, through a real SMTP server started here. Where sign-ups confirm
// their address, the address changes only when both links (or codes) are used; without
// confirmations (the server of the first tests), either one makes the change, as in GoTrue.

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

async function lastMailTo(email: string, on: TestServer = server) {
  await on.jobs.runDue();
  const messages = smtp.received.filter(({ envelope }) => envelope.to.includes(email));
  expect(messages.length).toBeGreaterThan(0);
  const mail = messages.at(-1)!.mail;
  const text = mail.text ?? '';
  const url = new URL(/Confirm (?:the new address|the change): (\S+)/.exec(text)![1]!);
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
    // Each address gets a message.
    expect(
      smtp.received
        .slice(before)
        .map(({ envelope }) => envelope.to)
        .sort(),
    ).toEqual([[member.email], [newEmail]].sort());
    expect(mail.subject).toBe('Confirm your new e-mail address for Steward');
    const current = await lastMailTo(member.email);
    expect(current.mail.subject).toBe('Confirm the change of your Steward e-mail address');
    expect(current.mail.text).toContain(newEmail);
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

describe('changing the e-mail address where addresses are confirmed', () => {
  let strict: TestServer;

  beforeAll(async () => {
    strict = await startTestServer({
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
    await strict?.close();
  });

  /** A confirmed account (made by the service role, as an operator would), signed in. */
  async function signedIn(label: string) {
    const email = uniqueEmail(label);
    const created = await strict.service().auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
    });
    if (created.error) throw created.error;
    const client = strict.anon();
    const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    if (error) throw error;
    return { client, email, id: created.data.user!.id };
  }

  async function addressOf(id: string): Promise<string> {
    const { rows } = await strict.db
      .serverWork()
      .query<{ email: string }>('select email from auth.users where id = $1', [id]);
    return rows[0]!.email;
  }

  it('changes the address only when the links to both addresses are used', async () => {
    const person = await signedIn('owner');
    const newEmail = uniqueEmail('taker');
    expect((await person.client.auth.updateUser({ email: newEmail })).error).toBeNull();
    const toNew = await lastMailTo(newEmail, strict);
    const toCurrent = await lastMailTo(person.email, strict);
    expect(toCurrent.mail.subject).toBe('Confirm the change of your Steward e-mail address');
    expect(toCurrent.url.searchParams.get('type')).toBe('email_change');

    // The link to the new address alone changes nothing: GoTrue's answer, and no session.
    const first = await strict.anon().auth.verifyOtp({
      token_hash: toNew.url.searchParams.get('token_hash')!,
      type: 'email_change',
    });
    expect(first).toEqual({ data: { user: null, session: null }, error: null });
    const raw = await authRequest(strict, '/verify', {
      body: { type: 'email_change', token_hash: toNew.url.searchParams.get('token_hash')! },
    });
    expect(raw.status).toBe(403);
    expect(await addressOf(person.id)).toBe(person.email);
    // Whoever holds the new address cannot reset the password from it.
    const sent = smtp.received.length;
    await strict.anon().auth.resetPasswordForEmail(newEmail);
    await strict.jobs.runDue();
    expect(
      smtp.received.slice(sent).filter(({ envelope }) => envelope.to.includes(newEmail)),
    ).toEqual([]);

    const second = await strict.anon().auth.verifyOtp({
      token_hash: toCurrent.url.searchParams.get('token_hash')!,
      type: 'email_change',
    });
    expect(second.error).toBeNull();
    expect(second.data.user?.email).toBe(newEmail);
    expect(second.data.session).not.toBeNull();
    expect(await addressOf(person.id)).toBe(newEmail);
  });

  it('takes the codes of both addresses in either order, and the link of the current one by GET', async () => {
    const person = await signedIn('coder');
    const newEmail = uniqueEmail('coded');
    expect((await person.client.auth.updateUser({ email: newEmail })).error).toBeNull();
    const toCurrent = await lastMailTo(person.email, strict);
    const toNew = await lastMailTo(newEmail, strict);

    const byCurrent = await authRequest(strict, '/verify', {
      body: { type: 'email_change', email: person.email, token: toCurrent.code },
    });
    expect(byCurrent.status).toBe(200);
    expect(byCurrent.body).toEqual({
      msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email',
      code: '200',
    });
    expect(await addressOf(person.id)).toBe(person.email);
    const byNew = await strict
      .anon()
      .auth.verifyOtp({ email: newEmail, token: toNew.code, type: 'email_change' });
    expect(byNew.error).toBeNull();
    expect(await addressOf(person.id)).toBe(newEmail);

    // GoTrue's own link (GET /verify) redirects with the message after the first of the two.
    const other = await signedIn('linked');
    const nextEmail = uniqueEmail('linked-new');
    const asked = await other.client.auth.updateUser(
      { email: nextEmail },
      { emailRedirectTo: `${SITE}/after` },
    );
    expect(asked.error).toBeNull();
    const link = (await lastMailTo(other.email, strict)).url;
    expect(link.pathname).toBe('/auth/v1/verify');
    const redirected = await fetch(link, { redirect: 'manual' });
    expect(redirected.status).toBe(303);
    const location = new URL(redirected.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${SITE}/after`);
    expect(new URLSearchParams(location.hash.slice(1)).get('message')).toBe(
      'Confirmation link accepted. Please proceed to confirm link sent to the other email',
    );
    expect(await addressOf(other.id)).toBe(other.email);
  });

  it('voids the links of an earlier request', async () => {
    const person = await signedIn('undecided');
    const firstChoice = uniqueEmail('first');
    expect((await person.client.auth.updateUser({ email: firstChoice })).error).toBeNull();
    const firstToCurrent = await lastMailTo(person.email, strict);
    const firstToNew = await lastMailTo(firstChoice, strict);
    const secondChoice = uniqueEmail('second');
    expect((await person.client.auth.updateUser({ email: secondChoice })).error).toBeNull();

    for (const mail of [firstToCurrent, firstToNew]) {
      const used = await strict.anon().auth.verifyOtp({
        token_hash: mail.url.searchParams.get('token_hash')!,
        type: 'email_change',
      });
      expect(used.error).toMatchObject({ status: 403, code: 'otp_expired' });
    }
    expect(await addressOf(person.id)).toBe(person.email);
  });
});
