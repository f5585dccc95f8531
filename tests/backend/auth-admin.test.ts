import { AuthRetryableFetchError } from '@supabase/supabase-js';
import bcrypt from 'bcryptjs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { PASSWORD, authRequest, signUpRaw, uniqueEmail } from './auth-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
});
afterAll(async () => {
  await server?.close();
});

const NOT_ADMIN = { code: 'not_admin', message: 'User not allowed' };

describe('admin API: creating users', () => {
  it('creates a confirmed user with metadata for the service role', async () => {
    const email = uniqueEmail('Seeded');
    const { data, error } = await server.service().auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { full_name: 'Seeded Member' },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email: email.toLowerCase(),
      aud: 'authenticated',
      role: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { full_name: 'Seeded Member', email_verified: true },
    });
    expect(data.user!.email_confirmed_at).toBeDefined();
    expect(data.user!.last_sign_in_at).toBeUndefined();
    const { count } = await server.db
      .serverWork()
      .query<{ count: number }>(
        'select count(*)::int as count from auth.sessions where user_id = $1',
        [data.user!.id],
      )
      .then(({ rows }) => rows[0]!);
    expect(count).toBe(0);

    const signedIn = await server.anon().auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user!.id).toBe(data.user!.id);
  });

  it('creates an unconfirmed user who cannot sign in yet', async () => {
    const email = uniqueEmail('unconfirmed');
    const { data, error } = await server.service().auth.admin.createUser({
      email,
      password: PASSWORD,
    });
    expect(error).toBeNull();
    expect(data.user!.email_confirmed_at).toBeUndefined();
    const signIn = await server.anon().auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toMatchObject({
      status: 400,
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });
    // The right password is still required before that is revealed.
    const wrong = await server.anon().auth.signInWithPassword({ email, password: 'wrong one' });
    expect(wrong.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('accepts a bcrypt password_hash, an id and app_metadata, for fast seeding', async () => {
    const email = uniqueEmail('hashed');
    const id = randomUUID();
    const created = await authRequest(server, '/admin/users', {
      token: server.keys.serviceRoleKey,
      body: {
        id,
        email,
        password_hash: bcrypt.hashSync('seeded passphrase', 4),
        email_confirm: true,
        app_metadata: { tier: 'gold' },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id,
      app_metadata: { provider: 'email', providers: ['email'], tier: 'gold' },
    });
    const signIn = await server
      .anon()
      .auth.signInWithPassword({ email, password: 'seeded passphrase' });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user!.id).toBe(id);

    const again = await authRequest(server, '/admin/users', {
      token: server.keys.serviceRoleKey,
      body: { id, email: uniqueEmail('same-id'), password: PASSWORD },
    });
    expect(again.status).toBe(422);
    const badHash = await authRequest(server, '/admin/users', {
      token: server.keys.serviceRoleKey,
      body: { email: uniqueEmail('badhash'), password_hash: 'md5:abc' },
    });
    expect(badHash.status).toBe(400);
    expect(badHash.body).toMatchObject({ code: 'validation_failed' });
  });

  it('refuses a taken address and a missing address', async () => {
    const email = uniqueEmail('taken');
    await signUpRaw(server, email);
    const { error } = await server.service().auth.admin.createUser({
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(error).toMatchObject({
      status: 422,
      code: 'email_exists',
      message: 'A user with this email address has already been registered',
    });
    const none = await authRequest(server, '/admin/users', {
      token: server.keys.serviceRoleKey,
      body: { password: PASSWORD },
    });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      code: 'validation_failed',
      message: 'Cannot create a user without either an email or phone',
    });
  });

  it('is refused to the anon key, to signed-in users and without a token', async () => {
    const body = { email: uniqueEmail('intruder'), password: PASSWORD, email_confirm: true };
    const anon = await authRequest(server, '/admin/users', { body });
    expect(anon.status).toBe(403);
    expect(anon.body).toEqual(NOT_ADMIN);

    const session = await signUpRaw(server, uniqueEmail('member'));
    const user = await authRequest(server, '/admin/users', {
      body,
      token: session.access_token as string,
    });
    expect(user.status).toBe(403);
    expect(user.body).toEqual(NOT_ADMIN);
    // The same through supabase-js, with the anon key as a browser has it.
    const viaClient = await server.anon().auth.admin.createUser(body);
    expect(viaClient.error).toMatchObject({ status: 403, ...NOT_ADMIN });

    const none = await authRequest(server, '/admin/users', { body, token: null });
    expect(none.status).toBe(401);
    const { rows } = await server.db
      .serverWork()
      .query('select 1 from auth.users where email = $1', [body.email]);
    expect(rows).toHaveLength(0);
  });
});

describe('admin API: deleting users', () => {
  it('deletes a user with their sessions; their tokens stop working', async () => {
    const session = await signUpRaw(server, uniqueEmail('leaving'));
    const userId = (session.user as { id: string }).id;
    const { error } = await server.service().auth.admin.deleteUser(userId);
    expect(error).toBeNull();

    const me = await authRequest(server, '/user', { token: session.access_token as string });
    expect(me.status).toBe(403);
    expect(me.body).toMatchObject({ code: 'user_not_found' });
    const refreshed = await authRequest(server, '/token?grant_type=refresh_token', {
      body: { refresh_token: session.refresh_token },
    });
    expect(refreshed.body).toMatchObject({ code: 'refresh_token_not_found' });
    for (const table of ['users', 'identities', 'sessions']) {
      const column = table === 'users' ? 'id' : 'user_id';
      const { rows } = await server.db
        .serverWork()
        .query(`select 1 from auth.${table} where ${column} = $1`, [userId]);
      expect(rows, table).toHaveLength(0);
    }
  });

  it('answers unknown and malformed ids with 404, and others than the service role with 403', async () => {
    const unknown = await server.service().auth.admin.deleteUser(randomUUID());
    expect(unknown.error).toMatchObject({
      status: 404,
      code: 'user_not_found',
      message: 'User not found',
    });
    const malformed = await authRequest(server, '/admin/users/not-a-uuid', {
      method: 'DELETE',
      token: server.keys.serviceRoleKey,
    });
    expect(malformed.status).toBe(404);
    expect(malformed.body).toEqual({
      code: 'validation_failed',
      message: 'user_id must be an UUID',
    });

    const session = await signUpRaw(server, uniqueEmail('victim'));
    const userId = (session.user as { id: string }).id;
    for (const token of [server.keys.anonKey, session.access_token as string]) {
      const refused = await authRequest(server, `/admin/users/${userId}`, {
        method: 'DELETE',
        token,
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(NOT_ADMIN);
    }
    expect(
      (await authRequest(server, '/user', { token: session.access_token as string })).status,
    ).toBe(200);
  });
});

describe('triggers on auth.users', () => {
  it('fire on sign-up, as they do on Supabase (a profile row per user)', async () => {
    await server.db.serverWork().exec(`
      create table public.member_profiles (
        id uuid primary key references auth.users (id) on delete cascade,
        email text not null,
        full_name text
      );
      create function public.create_member_profile() returns trigger
      language plpgsql security definer set search_path = '' as $$
      begin
        insert into public.member_profiles (id, email, full_name)
        values (new.id, new.email, new.raw_user_meta_data ->> 'full_name');
        return new;
      end
      $$;
      create trigger on_auth_user_created after insert on auth.users
        for each row execute function public.create_member_profile();
    `);
    try {
      const email = uniqueEmail('profiled');
      const { data, error } = await server.anon().auth.signUp({
        email,
        password: PASSWORD,
        options: { data: { full_name: 'Grace Hopper' } },
      });
      expect(error).toBeNull();
      const { rows } = await server.db
        .serverWork()
        .query('select email, full_name from public.member_profiles where id = $1', [
          data.user!.id,
        ]);
      expect(rows).toEqual([{ email, full_name: 'Grace Hopper' }]);
    } finally {
      await server.db.serverWork().exec(`
        drop trigger on_auth_user_created on auth.users;
        drop function public.create_member_profile();
        drop table public.member_profiles;
      `);
    }
  });

  it('a failing trigger gives a clean 500 and leaves nothing behind', async () => {
    await server.db.serverWork().exec(`
      create function public.refuse_some_users() returns trigger
      language plpgsql as $$
      begin
        if new.email like 'refused-%' then
          raise exception 'profile could not be created';
        end if;
        return new;
      end
      $$;
      create trigger refuse_some_users after insert on auth.users
        for each row execute function public.refuse_some_users();
    `);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const email = uniqueEmail('refused');
      const raw = await authRequest(server, '/signup', { body: { email, password: PASSWORD } });
      expect(raw.status).toBe(500);
      expect(raw.body).toEqual({
        code: 'unexpected_failure',
        message: 'Database error saving new user',
      });
      expect(logged).toHaveBeenCalled();

      const { data, error } = await server.anon().auth.signUp({ email, password: PASSWORD });
      expect(data.session).toBeNull();
      // auth-js treats a 500 as retryable and does not read its body.
      expect(error).toBeInstanceOf(AuthRetryableFetchError);
      expect(error).toMatchObject({ status: 500 });

      for (const sql of [
        'select 1 from auth.users where email = $1',
        'select 1 from auth.identities where email = $1',
      ]) {
        expect((await server.db.serverWork().query(sql, [email])).rows).toHaveLength(0);
      }
      // The server is unharmed: others still sign up.
      const { error: otherError } = await server
        .anon()
        .auth.signUp({ email: uniqueEmail('welcome'), password: PASSWORD });
      expect(otherError).toBeNull();
    } finally {
      logged.mockRestore();
      await server.db.serverWork().exec(`
        drop trigger refuse_some_users on auth.users;
        drop function public.refuse_some_users();
      `);
    }
  });
});
