import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionHandler } from '../../supabase/functions/_shared/function-env.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { MockProvider, tokens } from './oauth-provider.ts';
import {
  addMember,
  callFunction,
  CLIENT_ID,
  configureProvider,
  functionInstance,
  newOrganization,
  newTokenKey,
  newUser,
  ORIGIN,
  OTHER_APP_ORIGIN,
  startState,
  storedTokens,
  type Member,
  type Organization,
} from './oauth-support.ts';

// Starting and completing a connection: the state binding, the authorisation address, the code
// exchange and what gets stored, against the real embedded backend and a real HTTP provider.

const SECRET = 'client-secret-for-tests-7f3a';
let server: TestServer;
let provider: MockProvider;
let fn: FunctionHandler;
let org: Organization;
let member: Member;

beforeAll(async () => {
  [server, provider] = await Promise.all([startTestServer(), new MockProvider().start()]);
  fn = functionInstance(server, newTokenKey());
  org = await newOrganization(server);
  member = await addMember(server, org);
  await configureProvider(org, 'slack', provider, SECRET);
  await configureProvider(org, 'github', provider, SECRET);
});
afterAll(async () => {
  await Promise.all([server?.close(), provider?.stop()]);
});
beforeEach(() => provider.reset());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('start', () => {
  it('answers the authorisation address with the query of the specification', async () => {
    const answer = await callFunction(fn, member.token, {
      action: 'start',
      providerId: 'slack',
      origin: ORIGIN,
    });
    expect(answer.status).toBe(200);
    const url = new URL(answer.body.url as string);
    expect(`${url.origin}${url.pathname}`).toBe(provider.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CLIENT_ID,
      redirect_uri: `${ORIGIN}/oauth/callback/slack`,
      scope: 'channels:read chat:write users:read',
      response_type: 'code',
      access_type: 'offline',
      prompt: 'consent',
      state: answer.body.state,
    });
    expect(answer.body.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer.text).not.toContain(SECRET);
  });

  it('stores only the hash of the state, bound to user, organisation and provider for 10 minutes', async () => {
    const before = Date.now();
    const state = await startState(fn, member, 'github');
    const { rows } = await server.db
      .serverWork()
      .query<Record<string, unknown>>(
        'select * from public.oauth_states where user_id = $1 and provider_id = $2',
        [member.userId, 'github'],
      );
    const row = rows.find((r) => r.state_hash === sha256(state));
    expect(row).toMatchObject({
      organization_id: org.organizationId,
      redirect_uri: `${ORIGIN}/oauth/callback/github`,
      used_at: null,
    });
    expect(JSON.stringify(rows)).not.toContain(state);
    const ttl = Date.parse(String(row!.expires_at)) - before;
    expect(ttl).toBeGreaterThan(9.5 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000 + 5_000);
  });

  it('sends the user back to a configured app address, never to one the browser names', async () => {
    const redirectOf = async (answer: { status: number; body: Record<string, unknown> }) => {
      expect(answer.status).toBe(200);
      return new URL(answer.body.url as string).searchParams.get('redirect_uri');
    };
    const start = (extra: Record<string, unknown>, headers: Record<string, string> = {}) =>
      fn(
        new Request('http://localhost/oauth', {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${member.token}`,
            'Content-Type': 'application/json',
            ...headers,
          },
          body: JSON.stringify({ action: 'start', providerId: 'slack', ...extra }),
        }),
      ).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as Record<string, unknown>,
      }));

    // No origin named: the site address (SITE_URL).
    expect(await redirectOf(await start({}))).toBe(`${ORIGIN}/oauth/callback/slack`);
    // The origin the browser started from, when it is one of the configured addresses, in the
    // body or else in the Origin header.
    expect(await redirectOf(await start({ origin: OTHER_APP_ORIGIN }))).toBe(
      `${OTHER_APP_ORIGIN}/oauth/callback/slack`,
    );
    expect(await redirectOf(await start({}, { Origin: OTHER_APP_ORIGIN }))).toBe(
      `${OTHER_APP_ORIGIN}/oauth/callback/slack`,
    );

    const statesBefore = await server.db
      .serverWork()
      .query('select count(*)::int as n from public.oauth_states where user_id = $1', [
        member.userId,
      ]);
    const hostile = [
      'https://evil.example',
      `${ORIGIN}.evil.example`,
      'http://localhost:5174',
      'https://steward.example.org:8443',
      // Configured with a path: a page of the app, not an origin the browser could send.
      'http://127.0.0.1:8080',
      'javascript:alert(1)',
      `${OTHER_APP_ORIGIN}/path`,
      'nonsense',
      42,
    ];
    const refusal = {
      status: 400,
      body: { error: `Connections can only be started from this app's own address (${ORIGIN})` },
    };
    for (const origin of hostile) {
      expect({ origin, answer: await start({ origin }) }).toEqual({ origin, answer: refusal });
    }
    expect({ answer: await start({}, { Origin: 'https://evil.example' }) }).toEqual({
      answer: refusal,
    });
    // Refused before anything was stored.
    const statesAfter = await server.db
      .serverWork()
      .query('select count(*)::int as n from public.oauth_states where user_id = $1', [
        member.userId,
      ]);
    expect(statesAfter.rows).toEqual(statesBefore.rows);
  });

  it('cannot be built without the site address', () => {
    expect(() => functionInstance(server, newTokenKey(), { SITE_URL: '' })).toThrow(
      'SITE_URL is not set',
    );
    expect(() => functionInstance(server, newTokenKey(), { SITE_URL: 'localhost' })).toThrow(
      'SITE_URL must be the http or https address of the app',
    );
  });

  it('refuses unknown and unconfigured providers with the texts of the specification', async () => {
    expect(
      await callFunction(fn, member.token, {
        action: 'start',
        providerId: 'myspace',
        origin: ORIGIN,
      }),
    ).toMatchObject({ status: 404, body: { error: 'Provider myspace not found' } });
    expect(
      await callFunction(fn, member.token, {
        action: 'start',
        providerId: 'gusto',
        origin: ORIGIN,
      }),
    ).toMatchObject({ status: 400, body: { error: 'OAuth not configured for gusto' } });
  });

  it('needs a client secret, and BambooHR needs the company addresses', async () => {
    const { error } = await org.masterAdmin.client.rpc('save_oauth_config', {
      provider_id: 'mailchimp',
      client_id: 'id-without-secret',
      client_secret: null,
      authorize_url: null,
      token_url: null,
    });
    expect(error).toBeNull();
    expect(
      await callFunction(fn, member.token, {
        action: 'start',
        providerId: 'mailchimp',
        origin: ORIGIN,
      }),
    ).toMatchObject({ status: 400, body: { error: 'OAuth not configured for mailchimp' } });

    await org.masterAdmin.client.rpc('save_oauth_config', {
      provider_id: 'bamboohr',
      client_id: 'id',
      client_secret: 'secret',
      authorize_url: null,
      token_url: null,
    });
    expect(
      await callFunction(fn, member.token, {
        action: 'start',
        providerId: 'bamboohr',
        origin: ORIGIN,
      }),
    ).toMatchObject({ status: 400, body: { error: 'OAuth not configured for bamboohr' } });
  });

  it('never sends the secret over plain http to another machine', async () => {
    await org.masterAdmin.client.rpc('save_oauth_config', {
      provider_id: 'quickbooks',
      client_id: 'id',
      client_secret: 'secret',
      authorize_url: 'https://appcenter.intuit.com/connect/oauth2',
      token_url: 'http://tokens.example.com/token',
    });
    expect(
      await callFunction(fn, member.token, {
        action: 'start',
        providerId: 'quickbooks',
        origin: ORIGIN,
      }),
    ).toMatchObject({
      status: 400,
      body: {
        error:
          'OAuth not configured for quickbooks (Token URL: The address must start with https://)',
      },
    });
  });

  it('refuses callers who are not signed-in active members', async () => {
    const request = { action: 'start', providerId: 'slack', origin: ORIGIN };
    expect(await callFunction(fn, null, request)).toMatchObject({
      status: 401,
      body: { error: 'User not authenticated' },
    });
    expect(await callFunction(fn, server.keys.anonKey, request)).toMatchObject({
      status: 401,
      body: { error: 'User not authenticated' },
    });
    expect(await callFunction(fn, 'not.a.jwt', request)).toMatchObject({
      status: 401,
      body: { error: 'User not authenticated' },
    });
    const loner = await newUser(server, 'loner');
    expect(await callFunction(fn, loner.token, request)).toMatchObject({
      status: 403,
      body: { error: 'No organization found' },
    });
  });

  it('limits how many unfinished authorisations one user may have', async () => {
    const eager = await addMember(server, org);
    for (let i = 0; i < 20; i += 1) await startState(fn, eager, 'slack');
    expect(
      await callFunction(fn, eager.token, { action: 'start', providerId: 'slack', origin: ORIGIN }),
    ).toMatchObject({
      status: 429,
      body: { error: 'Too many connections started at once. Please try again in a few minutes.' },
    });
    // Others are not affected, and expired ones do not count.
    expect((await startState(fn, member, 'slack')).length).toBe(43);
    await server.db
      .serverWork()
      .query(
        `update public.oauth_states set expires_at = now() - interval '1 second' where user_id = $1`,
        [eager.userId],
      );
    expect((await startState(fn, eager, 'slack')).length).toBe(43);
  });

  it('answers bad requests with a clear 4xx', async () => {
    expect(await callFunction(fn, member.token, '{not json')).toMatchObject({
      status: 400,
      body: { error: 'Request body must be JSON' },
    });
    expect(await callFunction(fn, member.token, [1, 2])).toMatchObject({
      status: 400,
      body: { error: 'Request body must be a JSON object' },
    });
    expect(await callFunction(fn, member.token, { action: 'explode' })).toMatchObject({
      status: 400,
      body: { error: 'Unknown action' },
    });
    expect(await callFunction(fn, member.token, { action: 'start', origin: ORIGIN })).toMatchObject(
      {
        status: 400,
        body: { error: 'providerId is required' },
      },
    );
    const get = await fn(new Request('http://localhost/oauth', { method: 'GET' }));
    expect(get.status).toBe(405);
    const preflight = await fn(new Request('http://localhost/oauth', { method: 'OPTIONS' }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('complete', () => {
  const complete = (who: Member, providerId: string, state: string, code = 'auth-code-1') =>
    callFunction(fn, who.token, { action: 'complete', providerId, code, state });

  it('exchanges the code with a form-encoded POST and stores the connection with encrypted tokens', async () => {
    provider.answer = () =>
      tokens({ access_token: 'AT-first', refresh_token: 'RT-first', expires_in: 3600 });
    const state = await startState(fn, member, 'slack');
    const before = Date.now();
    const answer = await complete(member, 'slack', state, 'code-from-slack');
    expect(answer.status).toBe(200);

    expect(provider.calls).toHaveLength(1);
    const [call] = provider.calls;
    expect(call!.method).toBe('POST');
    expect(call!.contentType).toBe('application/x-www-form-urlencoded');
    expect(call!.form).toEqual({
      client_id: CLIENT_ID,
      client_secret: SECRET,
      code: 'code-from-slack',
      grant_type: 'authorization_code',
      redirect_uri: `${ORIGIN}/oauth/callback/slack`,
    });

    const connection = answer.body.connection as Record<string, unknown>;
    expect(connection).toMatchObject({
      provider_id: 'slack',
      scopes: ['channels:read', 'chat:write', 'users:read'],
      is_active: true,
      needs_reconnect: false,
    });
    const expiresIn = Date.parse(String(connection.expires_at)) - before;
    expect(expiresIn).toBeGreaterThan(3590_000);
    expect(expiresIn).toBeLessThan(3610_000);
    // Nothing secret comes back.
    for (const secret of [SECRET, 'AT-first', 'RT-first'])
      expect(answer.text).not.toContain(secret);

    const stored = await storedTokens(server, connection.id as string);
    expect(stored!.access_token).toMatch(/^v1\./);
    expect(stored!.refresh_token).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toMatch(/AT-first|RT-first/);

    // The member sees their connection through the API, and no token column.
    const own = await member.client
      .from('oauth_connections')
      .select('id, provider_id, is_active')
      .eq('provider_id', 'slack');
    expect(own.data).toEqual([{ id: connection.id, provider_id: 'slack', is_active: true }]);
    const tokenTable = await member.client.from('oauth_connection_tokens').select('*');
    expect(tokenTable.data ?? []).toEqual([]);
  });

  it('spends a state once: the second completion is refused', async () => {
    const state = await startState(fn, member, 'github');
    expect((await complete(member, 'github', state)).status).toBe(200);
    expect(await complete(member, 'github', state)).toMatchObject({
      status: 400,
      body: { error: 'Invalid OAuth state' },
    });
    expect(provider.grants('authorization_code')).toHaveLength(1);
  });

  it("refuses another user's state without spending it", async () => {
    const other = await addMember(server, org);
    const state = await startState(fn, member, 'github');
    expect(await complete(other, 'github', state)).toMatchObject({
      status: 400,
      body: { error: 'Invalid OAuth state' },
    });
    expect(provider.calls).toHaveLength(0);
    expect((await complete(member, 'github', state)).status).toBe(200);
  });

  it('refuses a state started for another provider', async () => {
    const state = await startState(fn, member, 'slack');
    expect(await complete(member, 'github', state)).toMatchObject({
      status: 400,
      body: { error: 'Invalid OAuth state' },
    });
    // It was presented, so it is spent: a state is never tried twice.
    expect(await complete(member, 'slack', state)).toMatchObject({
      status: 400,
      body: { error: 'Invalid OAuth state' },
    });
    expect(provider.calls).toHaveLength(0);
  });

  it('refuses an expired state and an unknown one', async () => {
    const state = await startState(fn, member, 'slack');
    await server.db
      .serverWork()
      .query(
        `update public.oauth_states set expires_at = now() - interval '1 second' where state_hash = $1`,
        [sha256(state)],
      );
    expect(await complete(member, 'slack', state)).toMatchObject({
      status: 400,
      body: { error: 'Invalid OAuth state' },
    });
    expect(await complete(member, 'slack', 'x'.repeat(43))).toMatchObject({
      status: 400,
      body: { error: 'Invalid OAuth state' },
    });
    expect(provider.calls).toHaveLength(0);
  });

  it('refuses a state bound to another organisation than the caller is in now', async () => {
    const otherOrg = await newOrganization(server);
    const state = await startState(fn, member, 'slack');
    // As if the member had moved to another organisation since starting.
    await server.db
      .serverWork()
      .query('update public.oauth_states set organization_id = $2 where state_hash = $1', [
        sha256(state),
        otherOrg.organizationId,
      ]);
    expect(await complete(member, 'slack', state)).toMatchObject({
      status: 400,
      body: { error: 'Invalid OAuth state' },
    });
  });

  it('needs code and state', async () => {
    const missing = { status: 400, body: { error: 'Missing required OAuth parameters' } };
    expect(
      await callFunction(fn, member.token, {
        action: 'complete',
        providerId: 'slack',
        state: 'abc',
      }),
    ).toMatchObject(missing);
    expect(
      await callFunction(fn, member.token, {
        action: 'complete',
        providerId: 'slack',
        code: 'abc',
      }),
    ).toMatchObject(missing);
    expect(
      await callFunction(fn, member.token, {
        action: 'complete',
        providerId: 'slack',
        code: '',
        state: 'abc',
      }),
    ).toMatchObject(missing);
  });

  it('reports a refused exchange with the status text and stores nothing', async () => {
    const loner = await addMember(server, org);
    provider.answer = () => ({
      status: 400,
      statusText: 'Bad Request',
      body: { error: 'invalid_grant' },
    });
    const state = await startState(fn, loner, 'slack');
    const answer = await complete(loner, 'slack', state);
    expect(answer).toMatchObject({
      status: 502,
      body: { error: 'Token exchange failed: Bad Request' },
    });
    expect(answer.text).not.toContain(SECRET);

    // A provider answering 200 with an error instead of a token (GitHub does).
    provider.answer = () => ({ body: { error: 'bad_verification_code' } });
    const again = await complete(loner, 'slack', await startState(fn, loner, 'slack'));
    expect(again).toMatchObject({
      status: 502,
      body: { error: 'Token exchange failed: bad_verification_code' },
    });

    const { rows } = await server.db
      .serverWork()
      .query('select 1 from public.oauth_connections where user_id = $1', [loner.userId]);
    expect(rows).toHaveLength(0);
  });

  it('reports an unreachable token endpoint', async () => {
    const loner = await addMember(server, org);
    await org.masterAdmin.client.rpc('save_oauth_config', {
      provider_id: 'youtube',
      client_id: CLIENT_ID,
      client_secret: SECRET,
      authorize_url: provider.authorizeUrl,
      // Nothing listens on port 9 (discard) of this machine.
      token_url: 'http://127.0.0.1:9/token',
    });
    const state = await startState(fn, loner, 'youtube');
    expect(await complete(loner, 'youtube', state)).toMatchObject({
      status: 502,
      body: { error: 'Token exchange failed: Bad Gateway' },
    });
  });

  it('reconnecting replaces the connection: one per user and provider, active again', async () => {
    const person = await addMember(server, org);
    const first = await complete(person, 'slack', await startState(fn, person, 'slack'));
    const id = (first.body.connection as { id: string }).id;
    await server.db
      .serverWork()
      .query('update public.oauth_connections set needs_reconnect = true where id = $1', [id]);
    const second = await complete(person, 'slack', await startState(fn, person, 'slack'));
    expect(second.body.connection).toMatchObject({ id, is_active: true, needs_reconnect: false });
    const { rows } = await server.db
      .serverWork()
      .query('select id from public.oauth_connections where user_id = $1', [person.userId]);
    expect(rows).toHaveLength(1);
  });

  it('stores a provider without refresh token or expiry (tokens that do not expire)', async () => {
    const person = await addMember(server, org);
    provider.answer = () => ({ body: { access_token: 'gho_forever', token_type: 'bearer' } });
    const answer = await complete(person, 'github', await startState(fn, person, 'github'));
    const connection = answer.body.connection as { id: string; expires_at: unknown };
    expect(connection.expires_at).toBeNull();
    expect((await storedTokens(server, connection.id))!.refresh_token).toBeNull();
  });
});
