import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptToken, importTokenKey } from '../../supabase/functions/oauth/crypto.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { MockProvider, tokens } from './oauth-provider.ts';
import {
  addMember,
  configureProvider,
  newOrganization,
  ORIGIN,
  setExpiry,
  storedTokens,
  type Member,
  type Organization,
} from './oauth-support.ts';

// The `oauth` function as the app reaches it: supabase-js `functions.invoke` against the
// embedded backend's /functions/v1/oauth, with the key the server generates in DATA_DIR. Also
// what the browser can read of the configuration, and disconnecting.

const SECRET = 'endpoint-client-secret-91c2';
const SITE_URL = 'https://office.example.org';
let server: TestServer;
let provider: MockProvider;
let org: Organization;
let member: Member;
/** Every body the function answered in this file, to search for secrets at the end. */
const answered: string[] = [];

beforeAll(async () => {
  provider = await new MockProvider().start();
  // The installation's settings the function gets from the server's configuration.
  server = await startTestServer({
    env: {
      AUTH_SITE_URL: SITE_URL,
      AUTH_ADDITIONAL_REDIRECT_URLS: ORIGIN,
      OAUTH_ALLOWED_HOSTS: new URL(provider.url).host,
    },
  });
  org = await newOrganization(server);
  member = await addMember(server, org);
  await configureProvider(org, 'slack', provider, SECRET);
});
afterAll(async () => {
  await Promise.all([server?.close(), provider?.stop()]);
});

/** Invokes the function; answers the status and the parsed body, success or not. */
async function invoke(
  client: SupabaseClient,
  body: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { data, error } = await client.functions.invoke('oauth', { body });
  if (error) {
    if (!(error instanceof FunctionsHttpError)) throw error;
    const response = error.context as Response;
    const text = await response.text();
    answered.push(text);
    return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
  }
  answered.push(JSON.stringify(data));
  return { status: 200, body: data as Record<string, unknown> };
}

describe('/functions/v1/oauth', () => {
  it('connects, hands out a token, refreshes it, with the key kept in DATA_DIR', async () => {
    provider.answer = () => tokens({ access_token: 'AT-e1', refresh_token: 'RT-e1' });
    const started = await invoke(member.client, {
      action: 'start',
      providerId: 'slack',
      origin: ORIGIN,
    });
    expect(started.status).toBe(200);
    const completed = await invoke(member.client, {
      action: 'complete',
      providerId: 'slack',
      code: 'code-e1',
      state: started.body.state,
    });
    expect(completed.status).toBe(200);
    const connection = completed.body.connection as { id: string };

    const key = (
      await readFile(path.join(server.dataDir, 'function-secrets', 'oauth'), 'utf8')
    ).trim();
    const stored = await storedTokens(server, connection.id);
    expect(
      await decryptToken(
        await importTokenKey(key),
        stored!.refresh_token!,
        `oauth_connection_tokens:${connection.id}:refresh_token`,
      ),
    ).toBe('RT-e1');

    expect(await invoke(member.client, { action: 'token', providerId: 'slack' })).toMatchObject({
      status: 200,
      body: { access_token: 'AT-e1' },
    });
    await setExpiry(server, connection.id, 60_000);
    provider.answer = () => tokens({ access_token: 'AT-e2', refresh_token: 'RT-e2' });
    expect(await invoke(member.client, { action: 'token', providerId: 'slack' })).toMatchObject({
      status: 200,
      body: { access_token: 'AT-e2' },
    });
  });

  it("sends the user back to the installation's configured addresses only", async () => {
    const redirect = async (body: Record<string, unknown>) => {
      const answer = await invoke(member.client, { action: 'start', providerId: 'slack', ...body });
      return answer.status === 200
        ? new URL(answer.body.url as string).searchParams.get('redirect_uri')
        : answer;
    };
    expect(await redirect({})).toBe(`${SITE_URL}/oauth/callback/slack`);
    expect(await redirect({ origin: ORIGIN })).toBe(`${ORIGIN}/oauth/callback/slack`);
    expect(await redirect({ origin: 'https://evil.example' })).toEqual({
      status: 400,
      body: { error: `Connections can only be started from this app's own address (${SITE_URL})` },
    });
  });

  it('is closed to callers without a valid JWT (the gateway check)', async () => {
    const response = await fetch(`${server.url}/functions/v1/oauth`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'token', providerId: 'slack' }),
    });
    expect(response.status).toBe(401);
    const anon = await invoke(server.anon(), { action: 'token', providerId: 'slack' });
    expect(anon).toEqual({ status: 401, body: { error: 'User not authenticated' } });
  });

  it('hands nothing to a session that has not proved the second factor its member set up', async () => {
    const careful = await addMember(server, org);
    const { data: me } = await careful.client.auth.getUser();
    const enrolled = await careful.client.auth.mfa.enroll({ factorType: 'totp' });
    const totp = new OTPAuth.TOTP({
      secret: OTPAuth.Secret.fromBase32(enrolled.data!.totp.secret),
    });
    const verified = await careful.client.auth.mfa.challengeAndVerify({
      factorId: enrolled.data!.id,
      code: totp.generate(),
    });
    expect(verified.error).toBeNull();

    const weak = server.anon();
    await weak.auth.signInWithPassword({
      email: me.user!.email!,
      password: 'correct horse battery staple',
    });
    for (const action of ['status', 'token']) {
      expect(await invoke(weak, { action, providerId: 'slack' })).toEqual({
        status: 403,
        body: { error: 'Sign in with your two-factor code first' },
      });
    }
    // The same member's session that proved the code is served.
    const started = await invoke(careful.client, {
      action: 'start',
      providerId: 'slack',
      origin: ORIGIN,
    });
    expect(started.status).toBe(200);
  });

  it('disconnecting deactivates the connection and deletes its tokens; only its owner may', async () => {
    const person = await addMember(server, org);
    provider.answer = () => tokens();
    const started = await invoke(person.client, {
      action: 'start',
      providerId: 'slack',
      origin: ORIGIN,
    });
    const completed = await invoke(person.client, {
      action: 'complete',
      providerId: 'slack',
      code: 'c',
      state: started.body.state,
    });
    const { id } = completed.body.connection as { id: string };

    const stranger = await member.client.rpc('disconnect_oauth_connection', { connection_id: id });
    expect(stranger.error?.message).toBe('Connection not found');
    expect(await storedTokens(server, id)).toBeDefined();

    const { error } = await person.client.rpc('disconnect_oauth_connection', { connection_id: id });
    expect(error).toBeNull();
    expect(await storedTokens(server, id)).toBeUndefined();
    const row = await person.client
      .from('oauth_connections')
      .select('is_active')
      .eq('id', id)
      .single();
    expect(row.data).toEqual({ is_active: false });
    expect(await invoke(person.client, { action: 'token', providerId: 'slack' })).toEqual({
      status: 404,
      body: { error: 'Slack is not connected' },
    });
  });
});

describe('provider configuration as the browser sees it', () => {
  it('shows whether a secret is set, never the secret', async () => {
    const settings = await member.client
      .from('oauth_provider_settings')
      .select('*')
      .eq('provider_id', 'slack')
      .single();
    expect(settings.error).toBeNull();
    expect(settings.data).toMatchObject({
      provider_id: 'slack',
      client_id: 'steward-test-client',
      has_client_secret: true,
      token_url: provider.tokenUrl,
    });
    expect(JSON.stringify(settings.data)).not.toContain(SECRET);

    for (const client of [member.client, org.masterAdmin.client]) {
      const direct = await client.from('oauth_configs').select('client_secret');
      expect(direct.error).not.toBeNull();
      const all = await client.from('oauth_configs').select('*');
      expect(JSON.stringify(all)).not.toContain(SECRET);
    }
  });

  it('keeps the secret when a master admin saves again without one', async () => {
    const { error } = await org.masterAdmin.client.rpc('save_oauth_config', {
      provider_id: 'slack',
      client_id: 'steward-test-client',
      client_secret: null,
      authorize_url: provider.authorizeUrl,
      token_url: provider.tokenUrl,
    });
    expect(error).toBeNull();
    provider.answer = () => tokens();
    const started = await invoke(member.client, {
      action: 'start',
      providerId: 'slack',
      origin: ORIGIN,
    });
    await invoke(member.client, {
      action: 'complete',
      providerId: 'slack',
      code: 'after-resave',
      state: started.body.state,
    });
    expect(provider.calls.at(-1)!.form.client_secret).toBe(SECRET);
  });

  it('lets only master admins configure providers', async () => {
    const admin = await addMember(server, org, 'admin');
    for (const client of [member.client, admin.client]) {
      const { error } = await client.rpc('save_oauth_config', {
        provider_id: 'slack',
        client_id: 'hijack',
        client_secret: 'hijack',
        authorize_url: 'https://evil.example/authorize',
        token_url: 'https://evil.example/token',
      });
      expect(error?.message).toBe('Only master admins can configure OAuth providers');
    }
  });

  it('never answered a client secret or a refresh token', () => {
    expect(answered.length).toBeGreaterThan(5);
    const everything = answered.join('\n');
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toMatch(/refresh-\d|RT-e\d|"refresh_token"/);
  });
});
