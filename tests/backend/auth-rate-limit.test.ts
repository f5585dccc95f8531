import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { PASSWORD, authRequest, signUpRaw, uniqueEmail } from './auth-helpers.ts';

afterEach(() => {
  vi.useRealTimers();
});

const signIn = (server: TestServer, email: string, password: string) =>
  authRequest(server, '/token?grant_type=password', { body: { email, password } });

const LIMITED = { code: 'over_request_rate_limit', message: 'Request rate limit reached' };

/** A server with small limits so that the tests need only a few attempts. */
function withLimits(env: Record<string, string>) {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ schema: 'platform', env });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => server;
}

describe('failed sign-ins per e-mail address', () => {
  const server = withLimits({
    AUTH_RATE_LIMIT_EMAIL_FAILURES: '3',
    AUTH_RATE_LIMIT_ADDRESS_FAILURES: '1000',
  });

  it('refuses every attempt with 429 after the limit, the right password included', async () => {
    const email = uniqueEmail('guessed');
    await signUpRaw(server(), email);
    for (let i = 0; i < 3; i += 1) {
      expect((await signIn(server(), email, `guess ${i}`)).status).toBe(400);
    }
    const right = await signIn(server(), email, PASSWORD);
    expect(right.status).toBe(429);
    expect(right.body).toEqual(LIMITED);
    const retryAfter = Number(right.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);

    const viaClient = await server().anon().auth.signInWithPassword({ email, password: PASSWORD });
    expect(viaClient.error).toMatchObject({ status: 429, ...LIMITED });

    // The address is not limited (1000 allowed): another account signs in.
    const other = uniqueEmail('bystander');
    await signUpRaw(server(), other);
    expect((await signIn(server(), other, PASSWORD)).status).toBe(200);
  });

  it('lets the address try again once the 15 minute window has passed', async () => {
    const email = uniqueEmail('patient');
    await signUpRaw(server(), email);
    for (let i = 0; i < 3; i += 1) await signIn(server(), email, `guess ${i}`);
    expect((await signIn(server(), email, PASSWORD)).status).toBe(429);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 14 * 60_000);
    expect((await signIn(server(), email, PASSWORD)).status).toBe(429);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect((await signIn(server(), email, PASSWORD)).status).toBe(200);
  });

  it('counts addresses without an account too, so the limit reveals nothing', async () => {
    const email = uniqueEmail('no-account');
    for (let i = 0; i < 3; i += 1) {
      expect((await signIn(server(), email, PASSWORD)).body).toMatchObject({
        code: 'invalid_credentials',
      });
    }
    expect((await signIn(server(), email, PASSWORD)).body).toEqual(LIMITED);
  });

  it('forgets earlier failures after a successful sign-in', async () => {
    const email = uniqueEmail('typo');
    await signUpRaw(server(), email);
    for (const _round of [1, 2]) {
      expect((await signIn(server(), email, 'typo one')).status).toBe(400);
      expect((await signIn(server(), email, 'typo two')).status).toBe(400);
      expect((await signIn(server(), email, PASSWORD)).status).toBe(200);
    }
  });
});

describe('failed sign-ins per client address', () => {
  const server = withLimits({
    AUTH_RATE_LIMIT_EMAIL_FAILURES: '100',
    AUTH_RATE_LIMIT_ADDRESS_FAILURES: '4',
  });

  it('refuses every account from an address that failed too often', async () => {
    const email = uniqueEmail('innocent');
    await signUpRaw(server(), email);
    for (let i = 0; i < 4; i += 1) {
      expect((await signIn(server(), uniqueEmail(`spray-${i}`), PASSWORD)).status).toBe(400);
    }
    const right = await signIn(server(), email, PASSWORD);
    expect(right.status).toBe(429);
    expect(right.body).toEqual(LIMITED);
    // Sign-up and refresh are not sign-in attempts: they still work from the address.
    const session = await signUpRaw(server(), uniqueEmail('newcomer'));
    const refreshed = await authRequest(server(), '/token?grant_type=refresh_token', {
      body: { refresh_token: session.refresh_token },
    });
    expect(refreshed.status).toBe(200);
  });
});

describe('requests without a client address', () => {
  const server = withLimits({
    AUTH_RATE_LIMIT_EMAIL_FAILURES: '2',
    AUTH_RATE_LIMIT_ADDRESS_FAILURES: '2',
  });

  it('are limited per e-mail address only (in-process requests have no peer)', async () => {
    const inProcess = (email: string, password: string) =>
      server().app.request('/auth/v1/token?grant_type=password', {
        method: 'POST',
        headers: {
          apikey: server().keys.anonKey,
          'content-type': 'application/json',
          'x-supabase-api-version': '2024-01-01',
        },
        body: JSON.stringify({ email, password }),
      });
    const email = uniqueEmail('in-process');
    await signUpRaw(server(), email);
    // More failures than the address limit, spread over addresses: none is limited.
    for (let i = 0; i < 3; i += 1) {
      expect((await inProcess(uniqueEmail(`spread-${i}`), 'wrong')).status).toBe(400);
    }
    expect((await inProcess(email, PASSWORD)).status).toBe(200);
    // The per-e-mail limit still holds.
    for (let i = 0; i < 2; i += 1) expect((await inProcess(email, 'wrong')).status).toBe(400);
    const limited = await inProcess(email, PASSWORD);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual(LIMITED);
  });
});

describe('the limiter memory', () => {
  const server = withLimits({
    AUTH_RATE_LIMIT_EMAIL_FAILURES: '1',
    AUTH_RATE_LIMIT_ADDRESS_FAILURES: '1000',
    // The client address is one key, so three keys leave room for two e-mail addresses.
    AUTH_RATE_LIMIT_MAX_KEYS: '3',
  });

  it('is bounded: beyond its size the stalest entries are forgotten', async () => {
    const [first, second, third] = [uniqueEmail('a'), uniqueEmail('b'), uniqueEmail('c')];
    expect((await signIn(server(), first, 'wrong')).status).toBe(400);
    expect((await signIn(server(), first, 'wrong')).status).toBe(429);
    expect((await signIn(server(), second, 'wrong')).status).toBe(400);
    expect((await signIn(server(), first, 'wrong')).status).toBe(429);
    expect((await signIn(server(), third, 'wrong')).status).toBe(400);
    // `first` failed longest ago and was pushed out; `second` and `third` are still counted.
    expect((await signIn(server(), first, 'wrong')).status).toBe(400);
    expect((await signIn(server(), third, 'wrong')).status).toBe(429);
  });
});
