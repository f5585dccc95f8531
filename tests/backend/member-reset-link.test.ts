import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganisation, PASSWORD, type Organisation } from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Issue 24: an admin makes a one-time password-reset link for a member who cannot get the
// e-mail (no SMTP here), through the `member-reset-link` edge function and supabase-js.

async function refusal(error: unknown): Promise<string> {
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const body = (await (error as FunctionsHttpError).context.json()) as { error: string };
  return body.error;
}

describe('a reset link an admin passes on', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'Reset Link Church');
    other = await createOrganisation(server, 'Other Church');
  });
  afterAll(() => server?.close());

  it('signs the member in once, to set a new password, and is recorded', async () => {
    const member = await addMember(server, church, 'user', 'forgetful');
    const { data, error } = await church.master.client.functions.invoke<{
      link: string;
      email: string;
    }>('member-reset-link', { body: { userId: member.userId } });
    expect(error).toBeNull();
    expect(data!.email).toBe(member.email.toLowerCase());
    const link = new URL(data!.link);
    expect(`${link.origin}${link.pathname}`).toBe(`${server.url}/reset-password`);
    expect(link.searchParams.get('type')).toBe('recovery');

    const browser = server.anon();
    const tokenHash = link.searchParams.get('token_hash')!;
    const verified = await browser.auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.id).toBe(member.userId);
    expect(
      (await browser.auth.updateUser({ password: 'a brand new passphrase' })).error,
    ).toBeNull();
    const again = await server.anon().auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(again.error?.status).toBe(403);
    const signIn = await server
      .anon()
      .auth.signInWithPassword({ email: member.email, password: 'a brand new passphrase' });
    expect(signIn.error).toBeNull();

    const { data: history } = await server
      .service()
      .from('activity_log')
      .select('kind, details')
      .eq('organization_id', church.id)
      .eq('kind', 'member.reset_link_made');
    expect(history).toEqual([
      { kind: 'member.reset_link_made', details: { member_id: member.userId } },
    ]);
  });

  it('is refused to users, to other organisations and for oneself', async () => {
    const member = await addMember(server, church, 'user', 'plain');
    const target = await addMember(server, church, 'user', 'target');
    const asMember = await member.client.functions.invoke('member-reset-link', {
      body: { userId: target.userId },
    });
    expect(await refusal(asMember.error)).toBe('Insufficient permissions to make reset links');
    const asOutsider = await other.master.client.functions.invoke('member-reset-link', {
      body: { userId: target.userId },
    });
    expect(await refusal(asOutsider.error)).toBe('User not found');
    const own = await church.master.client.functions.invoke('member-reset-link', {
      body: { userId: church.master.userId },
    });
    expect(await refusal(own.error)).toBe(
      'Use "Forgot your password?" on the sign-in page for your own account',
    );
    const bad = await church.master.client.functions.invoke('member-reset-link', {
      body: { userId: 'nobody' },
    });
    expect(await refusal(bad.error)).toBe('userId must be the id of a member');
    const anonymous = await server.anon().functions.invoke('member-reset-link', {
      body: { userId: target.userId },
    });
    expect(anonymous.error).toBeInstanceOf(FunctionsHttpError);
    expect((anonymous.error as FunctionsHttpError).context.status).toBe(401);
    // The member's password still works: nothing was made.
    const signIn = await server
      .anon()
      .auth.signInWithPassword({ email: target.email, password: PASSWORD });
    expect(signIn.error).toBeNull();
  });
});
