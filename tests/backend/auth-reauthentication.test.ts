import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { PASSWORD, authRequest, uniqueEmail } from './auth-helpers.ts';

// `[auth.email] secure_password_change` (GoTrue's update_password_require_reauthentication),
// through unmodified supabase-js: a session begun more than a day ago sets a new password only
// with the code that `reauthenticate()` e-mails (through a real SMTP server started here).

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({
    env: {
      SMTP_URL: smtp.url,
      SMTP_ADMIN_EMAIL: 'office@grace.example.org',
      AUTH_EMAIL_SECURE_PASSWORD_CHANGE: 'true',
      JOB_POLL_INTERVAL: '1h',
    },
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

async function signedUp(label: string): Promise<{ client: SupabaseClient; email: string }> {
  const email = uniqueEmail(label);
  const client = server.anon();
  const { error } = await client.auth.signUp({ email, password: PASSWORD });
  if (error) throw error;
  return { client, email };
}

/** Makes the client's session look as if it began two days ago. */
async function age(client: SupabaseClient): Promise<void> {
  const { data } = await client.auth.getSession();
  const claims = JSON.parse(
    Buffer.from(data.session!.access_token.split('.')[1]!, 'base64url').toString('utf8'),
  ) as { session_id: string };
  await server.db
    .serverWork()
    .query(`update auth.sessions set created_at = now() - interval '2 days' where id = $1`, [
      claims.session_id,
    ]);
}

async function codeSentTo(email: string): Promise<{ subject: string; code: string }> {
  await server.jobs.runDue();
  const mail = smtp.received.filter(({ envelope }) => envelope.to.includes(email)).at(-1)!.mail;
  return {
    subject: mail.subject ?? '',
    code: /Enter this code to confirm it is you: (\d{6})/.exec(mail.text ?? '')![1]!,
  };
}

describe('secure password change', () => {
  it('asks a session older than a day for the e-mailed code', async () => {
    const { client, email } = await signedUp('settled');
    await age(client);

    const refused = await client.auth.updateUser({
      password: 'a new secret',
      current_password: PASSWORD,
    });
    expect(refused.error).toMatchObject({
      status: 400,
      code: 'reauthentication_needed',
      message: 'Password update requires reauthentication',
    });

    expect(await client.auth.reauthenticate()).toEqual({
      data: { user: null, session: null },
      error: null,
    });
    const { subject, code } = await codeSentTo(email);
    expect(subject).toBe('Your Steward code to change your password');

    const wrong = await client.auth.updateUser({
      password: 'a new secret',
      current_password: PASSWORD,
      nonce: code === '000000' ? '000001' : '000000',
    });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: 'reauthentication_not_valid',
      message: 'Nonce has expired or is invalid',
    });
    const changed = await client.auth.updateUser({
      password: 'a new secret',
      current_password: PASSWORD,
      nonce: code,
    });
    expect(changed.error).toBeNull();
    const signIn = await server.anon().auth.signInWithPassword({ email, password: 'a new secret' });
    expect(signIn.error).toBeNull();

    // The code works once.
    const again = await client.auth.updateUser({
      password: 'yet another secret',
      current_password: 'a new secret',
      nonce: code,
    });
    expect(again.error).toMatchObject({ code: 'reauthentication_not_valid' });
  });

  it('lets a session begun today change the password with the current one alone', async () => {
    const { client } = await signedUp('recent');
    const changed = await client.auth.updateUser({
      password: 'changed today',
      current_password: PASSWORD,
    });
    expect(changed.error).toBeNull();
  });

  it('refuses to send a code without a signed-in user', async () => {
    const anonymous = await authRequest(server, '/reauthenticate');
    expect(anonymous.status).toBe(403);
    const post = await authRequest(server, '/reauthenticate', { body: {} });
    expect(post.status).toBe(405);
  });
});
