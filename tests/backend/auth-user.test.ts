import { AuthWeakPasswordError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { PASSWORD, authRequest, jwtPayload, signUpRaw, uniqueEmail } from './auth-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
});
afterAll(async () => {
  await server?.close();
});

describe('the signed-in user', () => {
  it('is returned by GET /user, and the token must name an existing user', async () => {
    const email = uniqueEmail('me');
    const client = server.anon();
    const { data: signedUp } = await client.auth.signUp({ email, password: PASSWORD });
    const { data, error } = await client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user).toEqual(
      expect.objectContaining({ id: signedUp.user!.id, email, role: 'authenticated' }),
    );
    expect(data.user!.identities).toHaveLength(1);

    const noToken = await authRequest(server, '/user', { token: null });
    expect(noToken.status).toBe(401);
    expect(noToken.body).toEqual({
      code: 'no_authorization',
      message: 'This endpoint requires a valid Bearer token',
    });
    const basic = await authRequest(server, '/user', {
      token: null,
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.status).toBe(401);

    // The anon key is a valid JWT, but of nobody.
    const anon = await authRequest(server, '/user');
    expect(anon.status).toBe(403);
    expect(anon.body).toEqual({ code: 'bad_jwt', message: 'invalid claim: missing sub claim' });
  });

  it('updates user_metadata (null removes a key) and the refreshed token carries it', async () => {
    const client = server.anon();
    await client.auth.signUp({
      email: uniqueEmail('meta'),
      password: PASSWORD,
      options: { data: { full_name: 'Old Name', parish: 'St Anne' } },
    });
    const { data, error } = await client.auth.updateUser({
      data: { full_name: 'New Name', parish: null, choir: { part: 'alto' } },
    });
    expect(error).toBeNull();
    expect(data.user!.user_metadata).toEqual({
      full_name: 'New Name',
      choir: { part: 'alto' },
      email_verified: true,
    });
    const fetched = await client.auth.getUser();
    expect(fetched.data.user!.user_metadata).toEqual(data.user!.user_metadata);

    const refreshed = await client.auth.refreshSession();
    expect(jwtPayload(refreshed.data.session!.access_token).user_metadata).toEqual(
      data.user!.user_metadata,
    );
  });

  it('changes the password given the current one: the old one stops working and other sessions end', async () => {
    const email = uniqueEmail('newpass');
    const client = server.anon();
    await client.auth.signUp({ email, password: PASSWORD });
    const elsewhere = server.anon();
    const { data: other } = await elsewhere.auth.signInWithPassword({ email, password: PASSWORD });

    const missing = await client.auth.updateUser({ password: 'a brand new passphrase' });
    expect(missing.error).toMatchObject({
      status: 400,
      code: 'current_password_required',
      message: 'Current password required when setting new password.',
    });
    const wrong = await client.auth.updateUser({
      password: 'a brand new passphrase',
      current_password: 'not my password',
    });
    expect(wrong.error).toMatchObject({ status: 400, code: 'current_password_mismatch' });
    const same = await client.auth.updateUser({ password: PASSWORD, current_password: PASSWORD });
    expect(same.error).toMatchObject({
      status: 422,
      code: 'same_password',
      message: 'New password should be different from the old password.',
    });
    const weak = await client.auth.updateUser({ password: 'abc' });
    expect(weak.error).toBeInstanceOf(AuthWeakPasswordError);

    const changed = await client.auth.updateUser({
      password: 'a brand new passphrase',
      current_password: PASSWORD,
    });
    expect(changed.error).toBeNull();

    const old = await server.anon().auth.signInWithPassword({ email, password: PASSWORD });
    expect(old.error).toMatchObject({ code: 'invalid_credentials' });
    const fresh = await server
      .anon()
      .auth.signInWithPassword({ email, password: 'a brand new passphrase' });
    expect(fresh.error).toBeNull();

    // This session survives; the one opened elsewhere with the old password is gone.
    expect((await client.auth.getUser()).error).toBeNull();
    const stale = await authRequest(server, '/token?grant_type=refresh_token', {
      body: { refresh_token: other.session!.refresh_token },
    });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({ code: 'refresh_token_not_found' });
  });

  it('refuses app_metadata and e-mail changes from the user', async () => {
    const session = await signUpRaw(server, uniqueEmail('appmeta'));
    const token = session.access_token as string;
    const appMetadata = await authRequest(server, '/user', {
      method: 'PUT',
      token,
      body: { app_metadata: { role: 'admin' } },
    });
    expect(appMetadata.status).toBe(403);
    expect(appMetadata.body).toEqual({
      code: 'not_admin',
      message: 'Updating app_metadata requires admin privileges',
    });
    const emailChange = await authRequest(server, '/user', {
      method: 'PUT',
      token,
      body: { email: uniqueEmail('elsewhere') },
    });
    expect(emailChange.status).toBe(422);
    expect(emailChange.body).toMatchObject({ code: 'feature_disabled' });
    const { rows } = await server.db
      .serverWork()
      .query<{ raw_app_meta_data: unknown }>(
        'select raw_app_meta_data from auth.users where id = $1',
        [(session.user as { id: string }).id],
      );
    expect(rows[0]!.raw_app_meta_data).toEqual({ provider: 'email', providers: ['email'] });
  });
});
