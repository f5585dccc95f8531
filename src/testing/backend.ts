import { createClient } from '@supabase/supabase-js';
import { inject } from 'vitest';
import type { Database } from '../lib/database.types.ts';
import type { Role } from '../lib/roles.ts';
import type { AppSupabaseClient } from '../lib/supabase.ts';
import { succeeded } from '../lib/errors.ts';

let counter = 0;

/** A unique e-mail address for a test user. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

export const TEST_PASSWORD = 'correct horse battery staple';

/** The backends of a test run: the shared one, and one whose sign-up is closed. */
export type TestBackend = 'backend' | 'closedSignUpBackend';

/**
 * A supabase-js client for the test backend, with its session kept in memory only: the
 * shared one, or (`closedSignUpBackend`) the one whose sign-up is closed.
 */
export function newClient(backend: TestBackend = 'backend'): AppSupabaseClient {
  const { url, anonKey } = inject(backend);
  return createClient<Database>(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

export interface TestUser {
  client: AppSupabaseClient;
  userId: string;
  email: string;
  password: string;
}

/** Signs up a new user; the returned client is signed in as them. */
export async function signUpUser(email = uniqueEmail()): Promise<TestUser> {
  const client = newClient();
  const { data } = await succeeded(client.auth.signUp({ email, password: TEST_PASSWORD }));
  if (!data.user) throw new Error('sign-up returned no user');
  return { client, userId: data.user.id, email, password: TEST_PASSWORD };
}

export interface TestOrganization {
  organizationId: string;
  name: string;
  masterAdmin: TestUser;
}

/** A new organisation created by a new user, who becomes its master admin. */
export async function createOrganization(
  name = `Grace Church ${uniqueEmail('org')}`,
): Promise<TestOrganization> {
  const masterAdmin = await signUpUser(uniqueEmail('master'));
  const { data } = await succeeded(
    masterAdmin.client.rpc('create_organization' as never, { name } as never),
  );
  const organizationId = (data as { id: string }).id;
  return { organizationId, name, masterAdmin };
}

/** A member of `organization` with `role`, joined through a real invitation. */
export async function addMember(
  organization: TestOrganization,
  role: Exclude<Role, 'master_admin'>,
  fullName: string | null = null,
): Promise<TestUser> {
  const email = uniqueEmail(role);
  const invite = await organization.masterAdmin.client.rpc(
    'invite_user' as never,
    { email, role, full_name: fullName } as never,
  );
  if (invite.error) throw new Error(invite.error.message);
  const { token } = invite.data as { token: string };
  const member = await signUpUser(email);
  const accepted = await member.client.rpc('accept_invitation' as never, { token } as never);
  if (accepted.error) throw new Error(accepted.error.message);
  return member;
}

/**
 * A client with the service-role key (bypasses row-level security), for arranging situations
 * a test needs that no user could create through the app, such as an expired invitation.
 */
export function serviceClient(backend: TestBackend = 'backend'): AppSupabaseClient {
  const { url, serviceRoleKey } = inject(backend);
  return createClient<Database>(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}
