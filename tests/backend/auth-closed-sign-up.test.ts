import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { PASSWORD, authRequest, uniqueEmail } from './auth-helpers.ts';

// Issue 11, item 4: an installation can close sign-up ([auth] enable_signup = false). Then
// GoTrue's answer for everyone, except a person holding a valid invitation, who creates the
// account for the invited address through the invitation page.

const DISABLED = { code: 'signup_disabled', message: 'Signups not allowed for this instance' };

let server: TestServer;
let admin: SupabaseClient;

beforeAll(async () => {
  server = await startTestServer({ env: { AUTH_ENABLE_SIGNUP: 'false' } });
  // Nobody can sign up: the first administrator is made with the admin API, as an operator would.
  const email = uniqueEmail('admin');
  const created = await server.service().auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  if (created.error) throw created.error;
  admin = server.anon();
  const signedIn = await admin.auth.signInWithPassword({ email, password: PASSWORD });
  if (signedIn.error) throw signedIn.error;
  const organization = await admin.rpc('create_organization', { name: 'Closed Chapel' });
  if (organization.error) throw new Error(organization.error.message);
});
afterAll(async () => {
  await server?.close();
});

async function invite(email = uniqueEmail('invited')) {
  const { data, error } = await admin.rpc('invite_user', { email, role: 'user', full_name: null });
  if (error) throw new Error(error.message);
  return { email, token: (data as { token: string }).token };
}

const signUp = (body: unknown) => authRequest(server, '/signup', { body });

describe('closed sign-up', () => {
  it('says so in /settings', async () => {
    const settings = await authRequest(server, '/settings');
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ disable_signup: true });
  });

  it("answers GoTrue's signup_disabled to anyone without an invitation", async () => {
    const response = await signUp({ email: uniqueEmail('stranger'), password: PASSWORD });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(DISABLED);

    const viaClient = await server.anon().auth.signUp({
      email: uniqueEmail('stranger'),
      password: PASSWORD,
    });
    expect(viaClient.error).toMatchObject({ status: 422, ...DISABLED });
    expect(viaClient.data.user).toBeNull();

    // Before anything else, as GoTrue: an unreadable body gets the same answer.
    expect((await signUp('not json')).body).toEqual(DISABLED);
  });

  it('creates the account of an invited person, who then joins the organisation', async () => {
    const { email, token } = await invite();
    const client = server.anon();
    const { data, error } = await client.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { invitation_token: token } },
    });
    expect(error).toBeNull();
    expect(data.session).not.toBeNull();
    // The token is a credential: it is not kept in the user's metadata.
    expect(data.user!.user_metadata).not.toHaveProperty('invitation_token');
    const { rows } = await server.db
      .serverWork()
      .query<{ meta: Record<string, unknown> }>(
        'select raw_user_meta_data as meta from auth.users where id = $1',
        [data.user!.id],
      );
    expect(rows[0]!.meta).not.toHaveProperty('invitation_token');

    const accepted = await client.rpc('accept_invitation', { token });
    expect(accepted.error).toBeNull();
    const profile = await client
      .from('user_profiles')
      .select('organization_id')
      .eq('id', data.user!.id)
      .single();
    expect(profile.data!.organization_id).not.toBeNull();

    // Used: the token creates nothing more.
    const again = await signUp({
      email: uniqueEmail('again'),
      password: PASSWORD,
      data: { invitation_token: token },
    });
    expect(again.body).toEqual(DISABLED);
  });

  it('opens no way for anyone else', async () => {
    const { email, token } = await invite();
    const cases = [
      // Another address with a valid token.
      { email: uniqueEmail('other'), password: PASSWORD, data: { invitation_token: token } },
      // The invited address with a made-up or malformed token.
      { email, password: PASSWORD, data: { invitation_token: 'f'.repeat(64) } },
      { email, password: PASSWORD, data: { invitation_token: 42 } },
      { email, password: PASSWORD, data: { invitation_token: '' } },
      // The token outside `data`.
      { email, password: PASSWORD, invitation_token: token },
    ];
    for (const body of cases) expect((await signUp(body)).body).toEqual(DISABLED);

    // An expired invitation.
    await server.db.serverWork().query(
      `update public.user_invitations set expires_at = now() - interval '1 minute'
        where email = $1`,
      [email],
    );
    const expired = await signUp({ email, password: PASSWORD, data: { invitation_token: token } });
    expect(expired.body).toEqual(DISABLED);
    const { rows } = await server.db
      .serverWork()
      .query('select 1 from auth.users where email = $1', [email]);
    expect(rows).toHaveLength(0);
  });

  it('still checks the request of an invited person as GoTrue does', async () => {
    const { email, token } = await invite();
    const weak = await signUp({ email, password: '12', data: { invitation_token: token } });
    expect(weak.status).toBe(422);
    expect(weak.body).toMatchObject({ code: 'weak_password' });
  });
});

describe('open sign-up (the default)', () => {
  let open: TestServer;
  beforeAll(async () => {
    open = await startTestServer({ schema: 'platform' });
  });
  afterAll(async () => {
    await open?.close();
  });

  it('lets anyone sign up and never keeps an invitation token in the metadata', async () => {
    const settings = await authRequest(open, '/settings');
    expect(settings.body).toMatchObject({ disable_signup: false });
    const response = await authRequest(open, '/signup', {
      body: {
        email: uniqueEmail('anyone'),
        password: PASSWORD,
        data: { invitation_token: 'abc', church: 'St Mary' },
      },
    });
    expect(response.status).toBe(200);
    expect((response.body!.user as { user_metadata: unknown }).user_metadata).toEqual({
      church: 'St Mary',
      email_verified: true,
    });
  });
});
