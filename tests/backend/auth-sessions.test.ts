import { AuthSessionMissingError, type AuthChangeEvent } from '@supabase/supabase-js';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signJwt } from '../../server/http/jwt.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { accessTokenFor } from '../support/tokens.ts';
import { PASSWORD, authRequest, jwtPayload, signUpRaw, uniqueEmail } from './auth-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ schema: 'platform' });
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

interface Session {
  access_token: string;
  refresh_token: string;
  user: { id: string };
}

const refresh = (refreshToken: string) =>
  authRequest(server, '/token?grant_type=refresh_token', {
    body: { refresh_token: refreshToken },
  });

async function newSession(label: string): Promise<Session> {
  return (await signUpRaw(server, uniqueEmail(label))) as unknown as Session;
}

describe('refresh-token rotation', () => {
  it('issues new tokens; the old access token stays valid until it expires', async () => {
    const client = server.anon();
    const { data: signedUp } = await client.auth.signUp({
      email: uniqueEmail('rotate'),
      password: PASSWORD,
    });
    const first = signedUp.session!;
    // A minute later, so the new token's times differ (within one second it would be the same
    // token, claim for claim, as with GoTrue).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60_000);
    const { data, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    const second = data.session!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.expires_at! - first.expires_at!).toBeGreaterThanOrEqual(59);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.user.id).toBe(first.user.id);
    expect(jwtPayload(second.access_token).session_id).toBe(
      jwtPayload(first.access_token).session_id,
    );
    expect(second.expires_in).toBeGreaterThan(3590);

    // The old access token is not revoked by a refresh: its session still exists.
    const old = await server.anon().auth.getUser(first.access_token);
    expect(old.error).toBeNull();
    expect(old.data.user!.id).toBe(first.user.id);

    // Recorded as GoTrue records it: the old token revoked, the new one its child.
    const { rows } = await server.db.serverWork().query<{ revoked: boolean; has_parent: boolean }>(
      `select revoked, parent is not null as has_parent from auth.refresh_tokens
        where session_id = $1 order by id`,
      [jwtPayload(first.access_token).session_id],
    );
    expect(rows).toEqual([
      { revoked: true, has_parent: false },
      { revoked: false, has_parent: true },
    ]);
    const { rows: parents } = await server.db.serverWork().query<{ ok: boolean }>(
      `select child.parent = parent.token as ok
         from auth.refresh_tokens child join auth.refresh_tokens parent
           on parent.session_id = child.session_id and parent.id < child.id
        where child.session_id = $1`,
      [jwtPayload(first.access_token).session_id],
    );
    expect(parents).toEqual([{ ok: true }]);
  });

  it('answers a rotated token presented again within 10 s with the current token', async () => {
    const session = await newSession('reuse-soon');
    const rotated = await refresh(session.refresh_token);
    expect(rotated.status).toBe(200);
    const again = await refresh(session.refresh_token);
    expect(again.status).toBe(200);
    expect(again.body!.refresh_token).toBe(rotated.body!.refresh_token);
    // The session lives on, and the current token still rotates normally.
    const next = await refresh(rotated.body!.refresh_token as string);
    expect(next.status).toBe(200);
    expect(next.body!.refresh_token).not.toBe(rotated.body!.refresh_token);
  });

  it('treats concurrent refreshes of one token as one rotation', async () => {
    const session = await newSession('concurrent');
    const results = await Promise.all([1, 2, 3].map(() => refresh(session.refresh_token)));
    expect(results.map((result) => result.status)).toEqual([200, 200, 200]);
    expect(new Set(results.map((result) => result.body!.refresh_token)).size).toBe(1);
  });

  it('still answers with the current token 9 s after the rotation', async () => {
    const session = await newSession('reuse-9s');
    const rotated = await refresh(session.refresh_token);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 9_000);
    const again = await refresh(session.refresh_token);
    expect(again.status).toBe(200);
    expect(again.body!.refresh_token).toBe(rotated.body!.refresh_token);
  });

  it('revokes the whole session when a rotated token comes back after 10 s', async () => {
    const session = await newSession('reuse-late');
    const rotated = await refresh(session.refresh_token);
    expect(rotated.status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11_000);

    const { data, error } = await server
      .anon()
      .auth.refreshSession({ refresh_token: session.refresh_token });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({
      status: 400,
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
    });

    // The thief's copy and the owner's current token are both dead now.
    const current = await refresh(rotated.body!.refresh_token as string);
    expect(current.status).toBe(400);
    expect(current.body).toEqual({
      code: 'refresh_token_not_found',
      message: 'Invalid Refresh Token: Refresh Token Not Found',
    });
    const user = await server.anon().auth.getUser(rotated.body!.access_token as string);
    expect(user.error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('refuses unknown and malformed refresh tokens', async () => {
    const unknown = await refresh(randomBytes(32).toString('base64url'));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      code: 'refresh_token_not_found',
      message: 'Invalid Refresh Token: Refresh Token Not Found',
    });
    for (const token of ['', 'short', 'x'.repeat(11), 'not a token at all, with spaces']) {
      const malformed = await refresh(token);
      expect(malformed.status, token).toBe(400);
      expect(malformed.body, token).toEqual({
        code: 'validation_failed',
        message: 'Refresh token is not valid',
      });
    }
    const { error } = await server.anon().auth.refreshSession({ refresh_token: 'tooshort' });
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});

describe('sign-out', () => {
  it('ends the session: refresh fails and the old access token gets session_not_found', async () => {
    const client = server.anon();
    const { data } = await client.auth.signUp({ email: uniqueEmail('bye'), password: PASSWORD });
    const { access_token: accessToken, refresh_token: refreshToken } = data.session!;

    const { error } = await client.auth.signOut();
    expect(error).toBeNull();
    expect((await client.auth.getSession()).data.session).toBeNull();

    const refreshed = await refresh(refreshToken);
    expect(refreshed.status).toBe(400);
    expect(refreshed.body).toMatchObject({ code: 'refresh_token_not_found' });

    const user = await authRequest(server, '/user', { token: accessToken });
    expect(user.status).toBe(403);
    expect(user.body).toEqual({
      code: 'session_not_found',
      message: 'Session from session_id claim in JWT does not exist',
    });
    const viaClient = await server.anon().auth.getUser(accessToken);
    expect(viaClient.error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('answers 204 and honours the scopes local, others and global', async () => {
    const email = uniqueEmail('scopes');
    await signUpRaw(server, email);
    const signIn = async () =>
      (
        await authRequest(server, '/token?grant_type=password', {
          body: { email, password: PASSWORD },
        })
      ).body as unknown as Session;
    const alive = async (session: Session) =>
      (await authRequest(server, '/user', { token: session.access_token })).status === 200;

    const [a, b, c] = [await signIn(), await signIn(), await signIn()];
    const local = await authRequest(server, '/logout?scope=local', {
      method: 'POST',
      token: a.access_token,
    });
    expect(local.status).toBe(204);
    expect(local.body).toBeNull();
    expect([await alive(a), await alive(b), await alive(c)]).toEqual([false, true, true]);

    const others = await authRequest(server, '/logout?scope=others', {
      method: 'POST',
      token: b.access_token,
    });
    expect(others.status).toBe(204);
    expect([await alive(b), await alive(c)]).toEqual([true, false]);

    const [d, e] = [await signIn(), await signIn()];
    const global = await authRequest(server, '/logout', { method: 'POST', token: d.access_token });
    expect(global.status).toBe(204);
    expect([await alive(b), await alive(d), await alive(e)]).toEqual([false, false, false]);
  });

  it('refuses an unknown scope and a missing token', async () => {
    const session = await newSession('badscope');
    const bad = await authRequest(server, '/logout?scope=everywhere', {
      method: 'POST',
      token: session.access_token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      code: 'validation_failed',
      message: 'Unsupported logout scope "everywhere"',
    });
    expect((await authRequest(server, '/user', { token: session.access_token })).status).toBe(200);

    const anonymous = await authRequest(server, '/logout', { method: 'POST', token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'no_authorization' });
  });
});

describe('access-token verification on /user', () => {
  it('refuses expired, tampered, unsigned and foreign tokens with 403 bad_jwt', async () => {
    const session = await newSession('forged');
    const claims = jwtPayload(session.access_token);
    const userId = session.user.id;
    const now = Math.floor(Date.now() / 1000);
    const [header, payload, signature] = session.access_token.split('.') as [
      string,
      string,
      string,
    ];
    const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

    const cases: Record<string, string> = {
      expired: accessTokenFor(server, userId, {
        session_id: claims.session_id,
        iat: now - 7200,
        exp: now - 3600,
      }),
      'tampered signature': `${header}.${payload}.${flip(signature)}`,
      'tampered payload': `${header}.${encode({ ...claims, role: 'service_role' })}.${signature}`,
      'alg none': `${encode({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      'another secret': signJwt(claims, 'another-secret-that-is-at-least-32-characters'),
      'not a JWT': 'abc.def',
    };
    for (const [name, token] of Object.entries(cases)) {
      const response = await authRequest(server, '/user', { token });
      expect(response.status, name).toBe(403);
      expect(response.body!.code, name).toBe('bad_jwt');
      expect(response.body!.message as string, name).toMatch(
        /^invalid JWT: unable to parse or verify signature, /,
      );
      const { error } = await server.anon().auth.getUser(token);
      expect(error, name).toMatchObject({ status: 403, code: 'bad_jwt' });
    }
    const expired = await authRequest(server, '/user', { token: cases.expired! });
    expect(expired.body!.message).toContain('token is expired');

    // The genuine token still works.
    expect((await authRequest(server, '/user', { token: session.access_token })).status).toBe(200);
  });

  it('refuses a valid token of a user that does not exist', async () => {
    const response = await authRequest(server, '/user', { token: accessTokenFor(server) });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      code: 'user_not_found',
      message: 'User from sub claim in JWT does not exist',
    });
    const notUuid = await authRequest(server, '/user', {
      token: accessTokenFor(server, 'not-a-uuid'),
    });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body).toEqual({
      code: 'bad_jwt',
      message: 'invalid claim: sub claim must be a UUID',
    });
  });
});

describe('supabase-js auth events', () => {
  it('sees SIGNED_IN, TOKEN_REFRESHED, USER_UPDATED and SIGNED_OUT', async () => {
    const email = uniqueEmail('events');
    await signUpRaw(server, email);
    const client = server.anon();
    const events: AuthChangeEvent[] = [];
    const { data: subscription } = client.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    try {
      await vi.waitFor(() => expect(events).toContain('INITIAL_SESSION'));
      expect(
        (await client.auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toBeNull();
      await vi.waitFor(() => expect(events).toContain('SIGNED_IN'));
      expect((await client.auth.refreshSession()).error).toBeNull();
      await vi.waitFor(() => expect(events).toContain('TOKEN_REFRESHED'));
      expect((await client.auth.updateUser({ data: { nickname: 'Evie' } })).error).toBeNull();
      await vi.waitFor(() => expect(events).toContain('USER_UPDATED'));
      expect((await client.auth.signOut()).error).toBeNull();
      await vi.waitFor(() => expect(events).toContain('SIGNED_OUT'));
      expect(events).toEqual([
        'INITIAL_SESSION',
        'SIGNED_IN',
        'TOKEN_REFRESHED',
        'USER_UPDATED',
        'SIGNED_OUT',
      ]);
    } finally {
      subscription.subscription.unsubscribe();
    }
  });
});
