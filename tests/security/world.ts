/**
 * Real users and organisations for the security matrix and the rpc tests, made the way the app
 * makes them: sign-up through the auth service, organisations through `create_organization`,
 * members through `invite_user` + sign-up + `accept_invitation`, deactivation through
 * `deactivate_user`. Only facts that no API offers to a user (restoring a state after a case)
 * use the service role.
 */
import { randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { TestServer } from '../support/server.ts';

export const PASSWORD = 'correct horse battery staple';

/** A fresh e-mail address per call, so tests never collide on one server. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.test`;
}

export interface Person {
  /** A supabase-js client signed in as this person (or anonymous). */
  client: SupabaseClient;
  userId: string;
  email: string;
}

export interface Organisation {
  id: string;
  name: string;
  master: Person;
}

/**
 * The `{ data, error }` of a supabase-js call, failing loudly on an error. `data` is typed as
 * present: callers use it only where the call returns something (a select, an rpc result).
 */
export function unwrap<T>(
  result: { data: T | null; error: { message: string } | null },
  what: string,
): T {
  if (result.error) throw new Error(`${what}: ${result.error.message}`);
  return result.data as T;
}

/** Signs up a new person through the auth service; the client keeps the session. */
export async function signUp(server: TestServer, label: string, email = uniqueEmail(label)) {
  const client = server.anon();
  const { data, error } = await client.auth.signUp({ email, password: PASSWORD });
  if (error) throw new Error(`sign-up of ${email}: ${error.message}`);
  if (!data.user || !data.session) throw new Error(`sign-up of ${email} returned no session`);
  return { client, userId: data.user.id, email } satisfies Person;
}

/** A new person who creates an organisation and so becomes its master admin. */
export async function createOrganisation(server: TestServer, name: string): Promise<Organisation> {
  const master = await signUp(server, 'master');
  const row = unwrap(
    await master.client.rpc('create_organization', { name }).single<{ id: string; name: string }>(),
    `create_organization ${name}`,
  );
  return { id: row.id, name: row.name, master };
}

/** An invitation by `inviter`; returns its id and the one-time token. */
export async function invite(
  inviter: Person,
  email: string,
  role: 'viewer' | 'user' | 'admin' = 'user',
  fullName: string | null = null,
): Promise<{ id: string; token: string }> {
  const result = unwrap(
    await inviter.client
      .rpc('invite_user', { email, role, full_name: fullName })
      .single<{ id: string; email: string; token: string }>(),
    `invite_user ${email}`,
  );
  return { id: result.id, token: result.token };
}

/** A new member of `organisation` with `role`, joined by invitation as in the app. */
export async function addMember(
  server: TestServer,
  organisation: Organisation,
  role: 'viewer' | 'user' | 'admin',
  label: string = role,
): Promise<Person> {
  const email = uniqueEmail(label);
  const { token } = await invite(
    organisation.master,
    email,
    role,
    `${label} of ${organisation.name}`,
  );
  const person = await signUp(server, label, email);
  unwrap(await person.client.rpc('accept_invitation', { token }), `accept_invitation ${email}`);
  return person;
}

/** A member whom the master admin has deactivated. */
export async function addDeactivatedMember(
  server: TestServer,
  organisation: Organisation,
  label = 'deactivated',
): Promise<Person> {
  const person = await addMember(server, organisation, 'user', label);
  unwrap(
    await organisation.master.client.rpc('deactivate_user', { user_id: person.userId }),
    `deactivate_user ${person.email}`,
  );
  return person;
}

/** The profile row as the service role sees it. */
export async function profileOf(server: TestServer, userId: string) {
  return unwrap(
    await server.service().from('user_profiles').select('*').eq('id', userId).single(),
    `profile ${userId}`,
  ) as {
    id: string;
    email: string;
    full_name: string | null;
    role: string;
    is_active: boolean;
    organization_id: string | null;
    invited_by: string | null;
    invited_at: string | null;
    last_login: string | null;
  };
}

/** Puts a profile back to `values` (service role), after a case that changed it. */
export async function restoreProfile(
  server: TestServer,
  userId: string,
  values: Record<string, unknown>,
): Promise<void> {
  unwrap(
    await server.service().from('user_profiles').update(values).eq('id', userId),
    `restore profile ${userId}`,
  );
}

/** The message of an rpc or table call that is expected to fail, or null when it succeeded. */
export function errorMessage(result: { error: { message: string } | null }): string | null {
  return result.error ? result.error.message : null;
}
