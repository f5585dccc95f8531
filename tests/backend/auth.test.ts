import { AuthApiError, AuthWeakPasswordError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuthSettings } from '../../server/config/auth-settings.ts';
import { verifyJwt } from '../../server/http/jwt.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  PASSWORD,
  authRequest,
  jwtHeader,
  jwtPayload,
  signUpRaw,
  uniqueEmail,
} from './auth-helpers.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    schema: 'platform',
    // GoTrue's bcrypt cost, which production uses; other test servers lower it for speed.
    env: { AUTH_BCRYPT_COST: '10' },
  });
});
afterAll(async () => {
  await server?.close();
});

describe('sign-up', () => {
  it('creates a confirmed user and returns a session, as Supabase local development does', async () => {
    const email = uniqueEmail('New.Member');
    const { data, error } = await server.anon().auth.signUp({
      email: email.toUpperCase(),
      password: PASSWORD,
      options: { data: { full_name: 'Ada Lovelace' } },
    });
    expect(error).toBeNull();
    const { user, session } = data;
    expect(session).not.toBeNull();
    expect(session!.token_type).toBe('bearer');
    expect(session!.expires_in).toBeGreaterThan(3590);
    expect(session!.expires_in).toBeLessThanOrEqual(3600);
    expect(Math.abs(session!.expires_at! - (Date.now() / 1000 + 3600))).toBeLessThan(10);
    expect(session!.refresh_token.length).toBeGreaterThanOrEqual(22);
    expect(user).toMatchObject({
      aud: 'authenticated',
      role: 'authenticated',
      email: email.toLowerCase(),
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { full_name: 'Ada Lovelace', email_verified: true },
      is_anonymous: false,
    });
    expect(user!.email_confirmed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(user!.confirmed_at).toBe(user!.email_confirmed_at);
    expect(user!.last_sign_in_at).toBeDefined();
    expect(user!.identities).toHaveLength(1);
    expect(user!.identities![0]).toMatchObject({
      id: user!.id,
      user_id: user!.id,
      provider: 'email',
      email: email.toLowerCase(),
      identity_data: {
        sub: user!.id,
        email: email.toLowerCase(),
        email_verified: false,
        phone_verified: false,
        full_name: 'Ada Lovelace',
      },
    });
    // Fields GoTrue leaves out when unset are absent, not null.
    expect(user).not.toHaveProperty('banned_until');
    expect(user).not.toHaveProperty('invited_at');
    expect(user).not.toHaveProperty('encrypted_password');
  });

  it('stores the user, identity, session and a hashed refresh token in the auth schema', async () => {
    const email = uniqueEmail('stored');
    const session = await signUpRaw(server, email, PASSWORD, { team: 'choir' });
    const userId = (session.user as { id: string }).id;
    const { rows: users } = await server.db.serverWork().query<Record<string, unknown>>(
      `select aud, role, email, encrypted_password, email_confirmed_at is not null as confirmed,
              raw_app_meta_data, raw_user_meta_data, created_at is not null as created,
              last_sign_in_at is not null as signed_in
         from auth.users where id = $1`,
      [userId],
    );
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({
      aud: 'authenticated',
      role: 'authenticated',
      email,
      confirmed: true,
      created: true,
      signed_in: true,
      raw_app_meta_data: { provider: 'email', providers: ['email'] },
      raw_user_meta_data: { team: 'choir', email_verified: true },
    });
    expect(users[0]!.encrypted_password).toMatch(/^\$2[aby]\$10\$/);

    const identities = await server.db
      .serverWork()
      .query('select 1 from auth.identities where user_id = $1', [userId]);
    expect(identities.rows).toHaveLength(1);
    const sessions = await server.db
      .serverWork()
      .query<{ id: string }>('select id from auth.sessions where user_id = $1', [userId]);
    expect(sessions.rows).toHaveLength(1);
    const tokens = await server.db
      .serverWork()
      .query<{ token: string; revoked: boolean }>(
        'select token, revoked from auth.refresh_tokens where session_id = $1',
        [sessions.rows[0]!.id],
      );
    expect(tokens.rows).toHaveLength(1);
    expect(tokens.rows[0]!.revoked).toBe(false);
    // A copy of the database alone must not hold a usable refresh token.
    expect(tokens.rows[0]!.token).not.toBe(session.refresh_token);
    expect(tokens.rows[0]!.token).not.toContain(session.refresh_token as string);
  });

  it('refuses a second account for the same address, whatever its case', async () => {
    const email = uniqueEmail('twice');
    await signUpRaw(server, email);
    for (const again of [email, email.toUpperCase()]) {
      const { data, error } = await server.anon().auth.signUp({ email: again, password: PASSWORD });
      expect(data.session).toBeNull();
      expect(error).toBeInstanceOf(AuthApiError);
      expect(error).toMatchObject({
        status: 422,
        code: 'user_already_exists',
        message: 'User already registered',
      });
    }
  });

  it('creates one account when the same address signs up twice at once', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(
      [1, 2, 3].map(() => authRequest(server, '/signup', { body: { email, password: PASSWORD } })),
    );
    expect(results.map((result) => result.status).sort()).toEqual([200, 422, 422]);
    for (const result of results.filter((r) => r.status === 422)) {
      expect(result.body).toEqual({
        code: 'user_already_exists',
        message: 'User already registered',
      });
    }
    const { rows } = await server.db
      .serverWork()
      .query('select 1 from auth.users where email = $1', [email]);
    expect(rows).toHaveLength(1);
  });

  it('refuses a password shorter than 6 characters as weak_password with its reasons', async () => {
    const { data, error } = await server.anon().auth.signUp({
      email: uniqueEmail('weak'),
      password: '12345',
    });
    expect(data.user).toBeNull();
    expect(error).toBeInstanceOf(AuthWeakPasswordError);
    expect(error).toMatchObject({
      status: 422,
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
      reasons: ['length'],
    });

    const raw = await authRequest(server, '/signup', {
      body: { email: uniqueEmail('weak'), password: 'abc' },
    });
    expect(raw.status).toBe(422);
    expect(raw.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(raw.body).toEqual({
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });
  });

  it('refuses a password longer than 72 characters (bcrypt would ignore the rest)', async () => {
    const { error } = await server.anon().auth.signUp({
      email: uniqueEmail('long'),
      password: 'x'.repeat(73),
    });
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Password cannot be longer than 72 characters',
    });
    // 72 one-byte characters are fine; 37 two-byte characters are 74 bytes, which is not.
    const fine = await server.anon().auth.signUp({
      email: uniqueEmail('long'),
      password: 'y'.repeat(72),
    });
    expect(fine.error).toBeNull();
    const multibyte = await server.anon().auth.signUp({
      email: uniqueEmail('long'),
      password: 'é'.repeat(37),
    });
    expect(multibyte.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('refuses an invalid e-mail address', async () => {
    for (const email of [
      'not-an-email',
      'two@@example.test',
      'space @example.test',
      'a@b_c.test',
    ]) {
      const { error } = await server.anon().auth.signUp({ email, password: PASSWORD });
      expect(error, email).toMatchObject({
        status: 400,
        code: 'validation_failed',
        message: 'Unable to validate email address: invalid format',
      });
    }
  });

  it('answers a missing password, phone sign-ups and anonymous sign-ups as GoTrue does', async () => {
    const noPassword = await authRequest(server, '/signup', { body: { email: uniqueEmail('np') } });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body).toEqual({
      code: 'validation_failed',
      message: 'Signup requires a valid password',
    });

    const phone = await authRequest(server, '/signup', {
      body: { phone: '+15555550100', password: PASSWORD },
    });
    expect(phone.status).toBe(400);
    expect(phone.body).toEqual({
      code: 'phone_provider_disabled',
      message: 'Phone signups are disabled',
    });

    const { error } = await server.anon().auth.signInAnonymously();
    expect(error).toMatchObject({
      status: 422,
      code: 'anonymous_provider_disabled',
      message: 'Anonymous sign-ins are disabled',
    });
  });
});

describe('access tokens', () => {
  it('carry exactly the claims GoTrue issues, signed HS256 with the project secret', async () => {
    const email = uniqueEmail('claims');
    const { data } = await server.anon().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { full_name: 'Claim Checker' } },
    });
    const token = data.session!.access_token;
    expect(jwtHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = verifyJwt(token, server.keys.jwtSecret);
    expect(Object.keys(claims).sort()).toEqual(
      [
        'iss',
        'sub',
        'aud',
        'exp',
        'iat',
        'email',
        'phone',
        'app_metadata',
        'user_metadata',
        'role',
        'aal',
        'amr',
        'session_id',
        'is_anonymous',
      ].sort(),
    );
    const { rows } = await server.db.serverWork().query<{ id: string; created: number }>(
      `select id, extract(epoch from created_at)::float8 as created from auth.sessions
        where user_id = $1`,
      [data.user!.id],
    );
    expect(claims).toMatchObject({
      iss: `${server.url}/auth/v1`,
      sub: data.user!.id,
      aud: 'authenticated',
      email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { full_name: 'Claim Checker', email_verified: true },
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: Math.floor(rows[0]!.created) }],
      session_id: rows[0]!.id,
      is_anonymous: false,
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(Math.abs(claims.iat! - Date.now() / 1000)).toBeLessThan(10);
    expect(data.session!.expires_at).toBe(claims.exp);
  });
});

describe('password sign-in', () => {
  it('returns a new session and records the sign-in time', async () => {
    const email = uniqueEmail('signin');
    const signedUp = await signUpRaw(server, email);
    const userId = (signedUp.user as { id: string }).id;
    await server.db
      .serverWork()
      .query('update auth.users set last_sign_in_at = null where id = $1', [userId]);

    const { data, error } = await server
      .anon()
      .auth.signInWithPassword({ email: email.toUpperCase(), password: PASSWORD });
    expect(error).toBeNull();
    expect(data.user!.id).toBe(userId);
    expect(data.session!.access_token).not.toBe(signedUp.access_token);
    expect(jwtPayload(data.session!.access_token).session_id).not.toBe(
      jwtPayload(signedUp.access_token as string).session_id,
    );
    expect(data.weakPassword).toBeUndefined();
    expect(Date.parse(data.user!.last_sign_in_at!)).toBeGreaterThan(Date.now() - 60_000);
    const { rows } = await server.db.serverWork().query<{ recent: boolean }>(
      `select last_sign_in_at > now() - interval '1 minute' as recent from auth.users
        where id = $1`,
      [userId],
    );
    expect(rows[0]!.recent).toBe(true);
  });

  it('gives the same invalid_credentials answer for a wrong password and an unknown e-mail', async () => {
    const email = uniqueEmail('wrong');
    await signUpRaw(server, email);
    const wrong = await server
      .anon()
      .auth.signInWithPassword({ email, password: 'not the password' });
    const unknown = await server
      .anon()
      .auth.signInWithPassword({ email: uniqueEmail('nobody'), password: PASSWORD });
    for (const { data, error } of [wrong, unknown]) {
      expect(data.session).toBeNull();
      expect(error).toBeInstanceOf(AuthApiError);
      expect(error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
    }
  });

  it('takes comparable time for an unknown e-mail and a wrong password', async () => {
    const email = uniqueEmail('timing');
    await signUpRaw(server, email);
    const time = async (address: string) => {
      const started = performance.now();
      const response = await authRequest(server, '/token?grant_type=password', {
        body: { email: address, password: 'wrong password' },
      });
      expect(response.status).toBe(400);
      return performance.now() - started;
    };
    const median = (values: number[]) =>
      values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const wrong: number[] = [];
    const unknown: number[] = [];
    // Interleaved, five each (an address may fail 5 times on one account before it has to
    // wait), so load on the machine hits both.
    for (let i = 0; i < 5; i += 1) {
      wrong.push(await time(email));
      unknown.push(await time(uniqueEmail('ghost')));
    }
    // Both pay for a bcrypt comparison; without the decoy an unknown address answers many
    // times faster than a wrong password.
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.4);
    expect(median(wrong)).toBeGreaterThan(median(unknown) * 0.4);
  });

  it('warns about a password that no longer meets the policy, as GoTrue does', async () => {
    const email = uniqueEmail('oldpolicy');
    const created = await authRequest(server, '/admin/users', {
      token: server.keys.serviceRoleKey,
      body: { email, password: '1234', email_confirm: true },
    });
    expect(created.status).toBe(200);
    const { data, error } = await server
      .anon()
      .auth.signInWithPassword({ email, password: '1234' });
    expect(error).toBeNull();
    expect(data.session).not.toBeNull();
    expect(data.weakPassword).toEqual({
      reasons: ['length'],
      message: 'Password should be at least 6 characters.',
    });
  });

  it('validates the request as GoTrue does', async () => {
    const missing = await authRequest(server, '/token?grant_type=password', {
      body: { password: PASSWORD },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: 'validation_failed', message: 'missing email or phone' });

    const both = await authRequest(server, '/token?grant_type=password', {
      body: { email: uniqueEmail('both'), phone: '+15555550100', password: PASSWORD },
    });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({
      code: 'validation_failed',
      message: 'Only an email address or phone number should be provided on login.',
    });

    const phone = await authRequest(server, '/token?grant_type=password', {
      body: { phone: '+15555550100', password: PASSWORD },
    });
    expect(phone.status).toBe(422);
    expect(phone.body).toEqual({
      code: 'phone_provider_disabled',
      message: 'Phone logins are disabled',
    });

    for (const query of ['?grant_type=magic', '']) {
      const unsupported = await authRequest(server, `/token${query}`, { body: {} });
      expect(unsupported.status).toBe(400);
      expect(unsupported.body).toEqual({
        code: 'invalid_credentials',
        message: 'unsupported_grant_type',
      });
    }
  });
});

describe('password hashing cost', () => {
  it("is GoTrue's 10 unless AUTH_BCRYPT_COST says otherwise, within bcrypt's sane range", () => {
    expect(readAuthSettings({}).bcryptCost).toBe(10);
    expect(readAuthSettings({ AUTH_BCRYPT_COST: '4' }).bcryptCost).toBe(4);
    expect(readAuthSettings({ AUTH_BCRYPT_COST: '31' }).bcryptCost).toBe(14);
    expect(() => readAuthSettings({ AUTH_BCRYPT_COST: '2' })).toThrow(/AUTH_BCRYPT_COST/);
  });
});
