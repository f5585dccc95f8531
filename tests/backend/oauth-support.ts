import type { SupabaseClient } from '@supabase/supabase-js';
import { randomBytes } from 'node:crypto';
import type { FunctionHandler } from '../../supabase/functions/_shared/function-env.ts';
import { createHandler } from '../../supabase/functions/oauth/handler.ts';
import { signedInClient, type TestServer } from '../support/server.ts';
import type { MockProvider } from './oauth-provider.ts';

let counter = 0;
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.test`;
}

export interface Member {
  client: SupabaseClient;
  userId: string;
  /** The user's access token, as the browser sends it to the function. */
  token: string;
}

export interface Organization {
  organizationId: string;
  masterAdmin: Member;
}

async function sessionToken(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return data.session.access_token;
}

/** A signed-up user without an organisation. */
export async function newUser(server: TestServer, prefix = 'user'): Promise<Member> {
  const { client, userId } = await signedInClient(server, uniqueEmail(prefix));
  return { client, userId, token: await sessionToken(client) };
}

/** A new organisation; its creator is its master admin. */
export async function newOrganization(server: TestServer): Promise<Organization> {
  const masterAdmin = await newUser(server, 'master');
  const { data, error } = await masterAdmin.client.rpc('create_organization', {
    name: `Grace Church ${counter}`,
  });
  if (error) throw new Error(error.message);
  return { organizationId: (data as { id: string }).id, masterAdmin };
}

/** A member of `organization` with `role`, joined through a real invitation. */
export async function addMember(
  server: TestServer,
  organization: Organization,
  role: 'user' | 'admin' = 'user',
): Promise<Member> {
  const email = uniqueEmail(role);
  const invite = await organization.masterAdmin.client.rpc('invite_user', {
    email,
    role,
    full_name: null,
  });
  if (invite.error) throw new Error(invite.error.message);
  const { client, userId } = await signedInClient(server, email);
  const accepted = await client.rpc('accept_invitation', {
    token: (invite.data as { token: string }).token,
  });
  if (accepted.error) throw new Error(accepted.error.message);
  return { client, userId, token: await sessionToken(client) };
}

export const CLIENT_ID = 'steward-test-client';

/** Registers the mock provider as `providerId` for the master admin's organisation. */
export async function configureProvider(
  organization: Organization,
  providerId: string,
  provider: MockProvider,
  clientSecret: string,
): Promise<void> {
  const { error } = await organization.masterAdmin.client.rpc('save_oauth_config', {
    provider_id: providerId,
    client_id: CLIENT_ID,
    client_secret: clientSecret,
    authorize_url: provider.authorizeUrl,
    token_url: provider.tokenUrl,
  });
  if (error) throw new Error(error.message);
}

/** A fresh 256-bit key, base64url, as OAUTH_TOKEN_KEY. */
export function newTokenKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The app's site address in the function instances of these tests (`SITE_URL`). */
export const ORIGIN = 'http://localhost:5173';
/** The app's other address in these tests (`ADDITIONAL_REDIRECT_URLS`). */
export const OTHER_APP_ORIGIN = 'https://steward.example.org';

/**
 * An instance of the `oauth` function talking to the test server: what one edge-runtime
 * worker is. Several instances with the same key behave like several workers. `env` adds to
 * or replaces the installation's settings; by default the installation allows 127.0.0.1 (any
 * port), where the tests' mock providers listen.
 */
export function functionInstance(
  server: TestServer,
  tokenKey: string,
  env: Record<string, string> = {},
): FunctionHandler {
  return createHandler({
    SUPABASE_URL: server.url,
    SUPABASE_ANON_KEY: server.keys.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: server.keys.serviceRoleKey,
    OAUTH_TOKEN_KEY: tokenKey,
    SITE_URL: ORIGIN,
    ADDITIONAL_REDIRECT_URLS: `${OTHER_APP_ORIGIN},http://127.0.0.1:8080/some/page`,
    OAUTH_ALLOWED_HOSTS: '127.0.0.1',
    ...env,
  });
}

export interface FunctionAnswer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

/** Calls a function instance as the browser would, with the user's token. */
export async function callFunction(
  handler: FunctionHandler,
  token: string | null,
  body: unknown,
): Promise<FunctionAnswer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await handler(
    new Request('http://localhost/oauth', {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text };
}

/** Starts an authorisation and returns its state. */
export async function startState(
  handler: FunctionHandler,
  member: Member,
  providerId: string,
): Promise<string> {
  const answer = await callFunction(handler, member.token, {
    action: 'start',
    providerId,
    origin: ORIGIN,
  });
  if (answer.status !== 200) throw new Error(`start failed: ${answer.text}`);
  return answer.body.state as string;
}

/** Starts and completes an authorisation: the member is then connected to `providerId`. */
export async function connect(
  handler: FunctionHandler,
  member: Member,
  providerId: string,
): Promise<Record<string, unknown>> {
  const state = await startState(handler, member, providerId);
  const answer = await callFunction(handler, member.token, {
    action: 'complete',
    providerId,
    code: 'the-code',
    state,
  });
  if (answer.status !== 200) throw new Error(`complete failed: ${answer.text}`);
  return answer.body.connection as Record<string, unknown>;
}

/** Moves a connection's expiry to `msFromNow` (directly in the database: test set-up). */
export async function setExpiry(
  server: TestServer,
  connectionId: string,
  msFromNow: number,
): Promise<void> {
  await server.db
    .serverWork()
    .query('update public.oauth_connections set expires_at = $2 where id = $1', [
      connectionId,
      new Date(Date.now() + msFromNow).toISOString(),
    ]);
}

/** The stored token row of a connection (ciphertexts), or undefined. */
export async function storedTokens(
  server: TestServer,
  connectionId: string,
): Promise<{ access_token: string; refresh_token: string | null } | undefined> {
  const { rows } = await server.db
    .serverWork()
    .query<{ access_token: string; refresh_token: string | null }>(
      'select access_token, refresh_token from public.oauth_connection_tokens where connection_id = $1',
      [connectionId],
    );
  return rows[0];
}
