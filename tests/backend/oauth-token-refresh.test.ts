import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionHandler } from '../../supabase/functions/_shared/function-env.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { MockProvider, tokens } from './oauth-provider.ts';
import {
  addMember,
  callFunction,
  CLIENT_ID,
  configureProvider,
  connect,
  functionInstance,
  newOrganization,
  newTokenKey,
  setExpiry,
  storedTokens,
  type Member,
  type Organization,
} from './oauth-support.ts';

// Handing out access tokens and refreshing them on the server: the 5-minute threshold, one
// refresh per connection under concurrency (in one instance and across instances), keeping the
// refresh token, and what a failed refresh does.

const SECRET = 'client-secret-refresh-tests';
const MINUTE = 60_000;
let server: TestServer;
let provider: MockProvider;
let tokenKey: string;
let fn: FunctionHandler;
let org: Organization;

beforeAll(async () => {
  [server, provider] = await Promise.all([startTestServer(), new MockProvider().start()]);
  tokenKey = newTokenKey();
  fn = functionInstance(server, tokenKey);
  org = await newOrganization(server);
  await configureProvider(org, 'slack', provider, SECRET);
  await configureProvider(org, 'google-workspace', provider, SECRET);
});
afterAll(async () => {
  await Promise.all([server?.close(), provider?.stop()]);
});
beforeEach(() => provider.reset());

/** A new member connected to `providerId` with tokens `access` and `refresh` (null: none). */
async function connectedMember(
  providerId: string,
  access = 'AT-0',
  refresh: string | null = 'RT-0',
): Promise<{ member: Member; connectionId: string }> {
  const member = await addMember(server, org);
  provider.answer = () =>
    refresh === null
      ? { body: { access_token: access, expires_in: 3600 } }
      : tokens({ access_token: access, refresh_token: refresh });
  const connection = await connect(fn, member, providerId);
  provider.reset();
  return { member, connectionId: connection.id as string };
}

const token = (handler: FunctionHandler, member: Member, providerId = 'slack') =>
  callFunction(handler, member.token, { action: 'token', providerId });

describe('token', () => {
  it('hands out the current access token without calling the provider while over 5 minutes remain', async () => {
    const { member, connectionId } = await connectedMember('slack', 'AT-current');
    await setExpiry(server, connectionId, 5 * MINUTE + 20_000);
    const answer = await token(fn, member);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ access_token: 'AT-current', token_type: 'Bearer' });
    expect(provider.calls).toHaveLength(0);
    expect(answer.text).not.toContain('RT-0');
  });

  it('refreshes on the server when under 5 minutes remain', async () => {
    const { member, connectionId } = await connectedMember('slack', 'AT-old', 'RT-old');
    await setExpiry(server, connectionId, 5 * MINUTE - 20_000);
    provider.answer = () =>
      tokens({ access_token: 'AT-new', refresh_token: 'RT-new', expires_in: 3600 });
    const before = Date.now();
    const answer = await token(fn, member);

    expect(answer.status).toBe(200);
    expect(answer.body.access_token).toBe('AT-new');
    expect(Date.parse(String(answer.body.expires_at)) - before).toBeGreaterThan(3590_000);
    expect(answer.text).not.toMatch(/RT-old|RT-new|client-secret/);
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0]!.contentType).toBe('application/x-www-form-urlencoded');
    expect(provider.calls[0]!.form).toEqual({
      client_id: CLIENT_ID,
      client_secret: SECRET,
      grant_type: 'refresh_token',
      refresh_token: 'RT-old',
    });

    // The new refresh token is the one used next time.
    await setExpiry(server, connectionId, MINUTE);
    provider.answer = () => tokens({ access_token: 'AT-third', refresh_token: 'RT-third' });
    expect((await token(fn, member)).body.access_token).toBe('AT-third');
    expect(provider.calls[1]!.form.refresh_token).toBe('RT-new');
  });

  it('refreshes a token that has already expired', async () => {
    const { member, connectionId } = await connectedMember('slack');
    await setExpiry(server, connectionId, -10 * MINUTE);
    provider.answer = () => tokens({ access_token: 'AT-revived' });
    expect((await token(fn, member)).body.access_token).toBe('AT-revived');
    expect(provider.grants('refresh_token')).toHaveLength(1);
  });

  it('keeps the old refresh token when the provider sends none', async () => {
    const { member, connectionId } = await connectedMember('google-workspace', 'AT-g', 'RT-keep');
    await setExpiry(server, connectionId, MINUTE);
    provider.answer = () => ({ body: { access_token: 'AT-g2', expires_in: 3599 } });
    expect((await token(fn, member, 'google-workspace')).body.access_token).toBe('AT-g2');

    await setExpiry(server, connectionId, MINUTE);
    provider.answer = () => ({ body: { access_token: 'AT-g3', expires_in: 3599 } });
    expect((await token(fn, member, 'google-workspace')).body.access_token).toBe('AT-g3');
    expect(provider.calls.map((call) => call.form.refresh_token)).toEqual(['RT-keep', 'RT-keep']);
  });

  it('hands out only the caller’s own connection', async () => {
    const { member } = await connectedMember('slack', 'AT-mine');
    const other = await addMember(server, org);
    expect(await token(fn, other)).toMatchObject({
      status: 404,
      body: { error: 'Slack is not connected' },
    });
    expect((await token(fn, member)).body.access_token).toBe('AT-mine');
    expect(await token(fn, member, 'nope')).toMatchObject({
      status: 404,
      body: { error: 'Provider nope not found' },
    });
  });

  it('gives nothing for a disconnected connection', async () => {
    const { member, connectionId } = await connectedMember('slack');
    const { error } = await member.client.rpc('disconnect_oauth_connection', {
      connection_id: connectionId,
    });
    expect(error).toBeNull();
    expect(await storedTokens(server, connectionId)).toBeUndefined();
    expect(await token(fn, member)).toMatchObject({
      status: 404,
      body: { error: 'Slack is not connected' },
    });
  });
});

describe('one refresh at a time', () => {
  it('shares one refresh between concurrent requests of one instance', async () => {
    const { member, connectionId } = await connectedMember('slack', 'AT-c', 'RT-c');
    await setExpiry(server, connectionId, 2 * MINUTE);
    provider.answer = () => ({ ...tokens({ access_token: 'AT-shared' }), delayMs: 300 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => token(fn, member)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.access_token))).toEqual(new Set(['AT-shared']));
    expect(provider.grants('refresh_token')).toHaveLength(1);
  });

  it('lets only one of several instances refresh (the database lease)', async () => {
    const { member, connectionId } = await connectedMember('slack', 'AT-d', 'RT-d');
    await setExpiry(server, connectionId, 2 * MINUTE);
    provider.answer = () => ({ ...tokens({ access_token: 'AT-one' }), delayMs: 400 });
    const instances = Array.from({ length: 4 }, () => functionInstance(server, tokenKey));
    const answers = await Promise.all(
      instances.flatMap((instance) => [token(instance, member), token(instance, member)]),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.access_token))).toEqual(new Set(['AT-one']));
    expect(provider.grants('refresh_token')).toHaveLength(1);
    const { rows } = await server.db
      .serverWork()
      .query<{ refreshing_until: unknown }>(
        'select refreshing_until from public.oauth_connection_tokens where connection_id = $1',
        [connectionId],
      );
    expect(rows[0]!.refreshing_until).toBeNull();
  });

  it('takes over a lease that ran out (a refresher that died)', async () => {
    const { member, connectionId } = await connectedMember('slack');
    await setExpiry(server, connectionId, MINUTE);
    await server.db.serverWork().query(
      `update public.oauth_connection_tokens set refreshing_until = now() - interval '1 second'
       where connection_id = $1`,
      [connectionId],
    );
    provider.answer = () => tokens({ access_token: 'AT-after-crash' });
    expect((await token(fn, member)).body.access_token).toBe('AT-after-crash');
  });
});

describe('a failed refresh', () => {
  it('returns no token, says why, and marks the connection for reconnection', async () => {
    const { member, connectionId } = await connectedMember('slack', 'AT-f', 'RT-f');
    await setExpiry(server, connectionId, 3 * MINUTE);
    provider.answer = () => ({
      status: 400,
      statusText: 'Bad Request',
      body: { error: 'invalid_grant' },
    });
    const answer = await token(fn, member);
    expect(answer).toEqual({
      status: 502,
      body: { error: 'Token refresh failed: Bad Request' },
      text: expect.any(String) as string,
    });
    expect(answer.text).not.toContain('AT-f');

    const own = await member.client
      .from('oauth_connections')
      .select('is_active, needs_reconnect')
      .eq('id', connectionId)
      .single();
    expect(own.data).toEqual({ is_active: true, needs_reconnect: true });
    expect(await storedTokens(server, connectionId)).toBeUndefined();

    // Nothing more is handed out, and the provider is not asked again.
    expect(await token(fn, member)).toMatchObject({
      status: 409,
      body: { error: 'Slack needs to be reconnected' },
    });
    expect(provider.calls).toHaveLength(1);
  });

  it('fails every waiting request of that refresh, with no token', async () => {
    const { member, connectionId } = await connectedMember('slack');
    await setExpiry(server, connectionId, MINUTE);
    provider.answer = () => ({ status: 503, statusText: 'Service Unavailable', delayMs: 200 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => token(fn, member)));
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.body.access_token).toBeUndefined();
    }
    expect(answers.map((a) => a.body.error)).toContain('Token refresh failed: Service Unavailable');
    expect(provider.calls).toHaveLength(1);
  });

  it('cannot refresh without a refresh token', async () => {
    const { member, connectionId } = await connectedMember('slack', 'AT-no-rt', null);
    await setExpiry(server, connectionId, MINUTE);
    expect(await token(fn, member)).toMatchObject({
      status: 409,
      body: { error: 'Cannot refresh token' },
    });
    expect(provider.calls).toHaveLength(0);
    const { rows } = await server.db
      .serverWork()
      .query<{ needs_reconnect: boolean }>(
        'select needs_reconnect from public.oauth_connections where id = $1',
        [connectionId],
      );
    expect(rows[0]!.needs_reconnect).toBe(true);
  });

  it('never hands out a stored token that was altered (tamper detection)', async () => {
    const { member, connectionId } = await connectedMember('slack', 'AT-genuine');
    const stored = await storedTokens(server, connectionId);
    const forged =
      stored!.access_token.slice(0, -2) + (stored!.access_token.endsWith('A') ? 'BB' : 'AA');
    await server.db
      .serverWork()
      .query(
        'update public.oauth_connection_tokens set access_token = $2 where connection_id = $1',
        [connectionId, forged],
      );
    expect(await token(fn, member)).toMatchObject({
      status: 409,
      body: { error: 'Slack needs to be reconnected' },
    });
  });

  it('refuses tokens sealed with another key', async () => {
    const { member } = await connectedMember('slack', 'AT-key-one');
    const otherKeyInstance = functionInstance(server, newTokenKey());
    expect(await token(otherKeyInstance, member)).toMatchObject({
      status: 409,
      body: { error: 'Slack needs to be reconnected' },
    });
  });
});

describe('status', () => {
  it('refreshes a due connection and answers it without any token', async () => {
    const { member, connectionId } = await connectedMember('slack', 'AT-s', 'RT-s');
    await setExpiry(server, connectionId, MINUTE);
    provider.answer = () => tokens({ access_token: 'AT-s2', refresh_token: 'RT-s2' });
    const answer = await callFunction(fn, member.token, { action: 'status', providerId: 'slack' });
    expect(answer.status).toBe(200);
    expect(answer.body.connection).toMatchObject({ id: connectionId, needs_reconnect: false });
    expect(
      Date.parse((answer.body.connection as { expires_at: string }).expires_at),
    ).toBeGreaterThan(Date.now() + 50 * MINUTE);
    expect(answer.text).not.toMatch(/AT-s|RT-s|access_token|refresh_token/);
    expect(provider.calls).toHaveLength(1);
  });
});
