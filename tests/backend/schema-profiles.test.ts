import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { PASSWORD, profileOf, signUp, uniqueEmail } from '../security/world.ts';

// The triggers on auth.users and on the profile: what the auth service does is reflected in
// user_profiles without the app doing anything.
describe('user profiles follow the auth users', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('creates a profile for every new user: role user, active, e-mail copied, no organisation', async () => {
    // Mixed case: the auth service stores the address lower-cased, and the profile copies that.
    const email = uniqueEmail('fresh');
    const person = await signUp(server, 'fresh', email.replace('fresh', 'Fresh'));
    expect(await profileOf(server, person.userId)).toMatchObject({
      id: person.userId,
      email,
      role: 'user',
      is_active: true,
      organization_id: null,
      full_name: null,
    });
    // Signing up signs in (e-mail confirmation is off): last_login is that sign-in.
    const { data } = await person.client.auth.getUser();
    const lastLogin = (await profileOf(server, person.userId)).last_login;
    expect(lastLogin && Date.parse(lastLogin)).toBe(Date.parse(data.user!.last_sign_in_at!));
    // The new user reads exactly their own profile.
    const own = await person.client.from('user_profiles').select('id, email, role');
    expect(own.data).toEqual([{ id: person.userId, email, role: 'user' }]);
  });

  it('creates a profile for a user made through the admin API as well', async () => {
    const email = uniqueEmail('admin-made');
    const response = await fetch(`${server.url}/auth/v1/admin/users`, {
      method: 'POST',
      headers: {
        apikey: server.keys.serviceRoleKey,
        authorization: `Bearer ${server.keys.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }),
    });
    expect(response.status).toBe(200);
    const user = (await response.json()) as { id: string };
    expect(await profileOf(server, user.id)).toMatchObject({
      email,
      role: 'user',
      is_active: true,
    });
  });

  it('stamps last_login at every password sign-in', async () => {
    const person = await signUp(server, 'returning');
    const client = server.anon();
    const first = await client.auth.signInWithPassword({ email: person.email, password: PASSWORD });
    expect(first.error).toBeNull();
    const stamped = (await profileOf(server, person.userId)).last_login;
    expect(stamped).not.toBeNull();
    expect(Date.parse(stamped!)).toBe(Date.parse(first.data.user!.last_sign_in_at!));

    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await client.auth.signInWithPassword({
      email: person.email,
      password: PASSWORD,
    });
    const restamped = (await profileOf(server, person.userId)).last_login;
    expect(Date.parse(restamped!)).toBe(Date.parse(second.data.user!.last_sign_in_at!));
    expect(Date.parse(restamped!)).toBeGreaterThan(Date.parse(stamped!));
  });

  it('keeps updated_at current when a user renames themselves', async () => {
    const person = await signUp(server, 'renamer');
    const before = await server
      .service()
      .from('user_profiles')
      .select('updated_at')
      .eq('id', person.userId)
      .single();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { error } = await person.client
      .from('user_profiles')
      .update({ full_name: 'Re Namer', updated_at: '2000-01-01T00:00:00Z' })
      .eq('id', person.userId);
    // updated_at is not the user's to set.
    expect(error?.code).toBe('42501');
    const renamed = await person.client
      .from('user_profiles')
      .update({ full_name: 'Re Namer' })
      .eq('id', person.userId)
      .select('full_name, updated_at')
      .single();
    expect(renamed.error).toBeNull();
    expect(renamed.data!.full_name).toBe('Re Namer');
    expect(Date.parse(renamed.data!.updated_at)).toBeGreaterThan(
      Date.parse(before.data!.updated_at),
    );
  });

  it('keeps a name without spaces around it, not empty, and at most 200 characters', async () => {
    const person = await signUp(server, 'named');
    const rename = (full_name: string | null) =>
      person.client.from('user_profiles').update({ full_name }).eq('id', person.userId);

    for (const bad of [' Ruth Miller', 'Ruth Miller\t', '', '   ', 'R'.repeat(201)]) {
      const { error } = await rename(bad);
      expect({ name: bad, code: error?.code }).toEqual({ name: bad, code: '23514' });
    }
    expect((await profileOf(server, person.userId)).full_name).toBeNull();

    expect((await rename('Ruth  Miller')).error).toBeNull();
    expect((await profileOf(server, person.userId)).full_name).toBe('Ruth  Miller');
    expect((await rename('R'.repeat(200))).error).toBeNull();
    expect((await rename(null)).error).toBeNull();
    expect((await profileOf(server, person.userId)).full_name).toBeNull();
  });

  it('lets a user whose profile went missing recreate a plain one, and nothing more', async () => {
    const person = await signUp(server, 'recreate');
    const { error: deleteError } = await server
      .service()
      .from('user_profiles')
      .delete()
      .eq('id', person.userId);
    expect(deleteError).toBeNull();

    const escalated = await person.client
      .from('user_profiles')
      .insert({ id: person.userId, email: person.email, role: 'master_admin', is_active: true });
    expect(escalated.error?.code).toBe('42501');
    const someoneElse = await person.client
      .from('user_profiles')
      .insert({ id: person.userId, email: uniqueEmail('other'), role: 'user', is_active: true });
    expect(someoneElse.error?.code).toBe('42501');

    const plain = await person.client
      .from('user_profiles')
      .insert({ id: person.userId, email: person.email, role: 'user', is_active: true });
    expect(plain.error).toBeNull();
    expect(await profileOf(server, person.userId)).toMatchObject({
      role: 'user',
      organization_id: null,
    });
  });
});
