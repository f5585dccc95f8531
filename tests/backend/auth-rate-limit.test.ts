import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GuessLimiter } from '../../server/auth/guess-limiter.ts';
import { requestAllowanceCleanupSchedule } from '../../server/housekeeping/request-allowances.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { scratchDir } from '../support/scratch.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { postgresAdminUrl } from '../support/template.ts';
import {
  PASSWORD,
  authRequest,
  authRequestFrom,
  signUpRaw,
  uniqueEmail,
  type AuthResponse,
} from './auth-helpers.ts';

// Issue 11: GoTrue's per-address request limits (F2), guessing slowed down instead of accounts
// locked (F3), and one spelling of an e-mail address for the limits and the database (F6).
// Requests come from several loopback addresses (127.0.0.x) to act as several clients.

afterEach(() => {
  vi.useRealTimers();
});

const LIMITED = { code: 'over_request_rate_limit', message: 'Request rate limit reached' };

const signInFrom = (server: TestServer, from: string, email: string, password: string) =>
  authRequestFrom(server, from, '/token?grant_type=password', { email, password });

/** A server with the given limits, for the tests of one `describe`. */
function withLimits(env: Record<string, string>, schema: 'platform' | 'app' = 'platform') {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ schema, env });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => server;
}

/** Lets `ms` pass for the limits, which are kept by the server's clock. */
function passes(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
}

function expectLimited(response: AuthResponse) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual(LIMITED);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describe("GoTrue's request limits per client address", () => {
  const server = withLimits({
    AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '3',
    AUTH_RATE_LIMIT_TOKEN_REFRESH: '2',
  });

  it('counts sign-ups and sign-ins together against sign_in_sign_ups', async () => {
    const from = '127.0.0.2';
    const email = uniqueEmail('counted');
    const signUp = (address: string) =>
      authRequestFrom(server(), from, '/signup', { email: address, password: PASSWORD });
    expect((await signUp(email)).status).toBe(200);
    expect((await signInFrom(server(), from, email, PASSWORD)).status).toBe(200);
    expect((await signUp(uniqueEmail('second'))).status).toBe(200);

    const refused = await signUp(uniqueEmail('fourth'));
    expectLimited(refused);
    // Three per five minutes: the next one is back within 100 s.
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(100);
    expectLimited(await signInFrom(server(), from, email, PASSWORD));

    // Another client is not affected.
    const other = await authRequestFrom(server(), '127.0.0.3', '/signup', {
      email: uniqueEmail('elsewhere'),
      password: PASSWORD,
    });
    expect(other.status).toBe(200);
  });

  it('refills the allowance at the steady rate', async () => {
    const from = '127.0.0.4';
    for (let i = 0; i < 3; i += 1) {
      const response = await authRequestFrom(server(), from, '/signup', {
        email: uniqueEmail(`steady-${i}`),
        password: PASSWORD,
      });
      expect(response.status).toBe(200);
    }
    const signUp = () =>
      authRequestFrom(server(), from, '/signup', {
        email: uniqueEmail('later'),
        password: PASSWORD,
      });
    expectLimited(await signUp());
    passes(101_000);
    expect((await signUp()).status).toBe(200);
    expectLimited(await signUp());
  });

  it('limits refresh-token grants by token_refresh, apart from sign-ins', async () => {
    const from = '127.0.0.5';
    const session = await authRequestFrom(server(), from, '/signup', {
      email: uniqueEmail('refreshing'),
      password: PASSWORD,
    });
    let refreshToken = session.body!.refresh_token as string;
    const refresh = () =>
      authRequestFrom(server(), from, '/token?grant_type=refresh_token', {
        refresh_token: refreshToken,
      });
    for (let i = 0; i < 2; i += 1) {
      const refreshed = await refresh();
      expect(refreshed.status).toBe(200);
      refreshToken = refreshed.body!.refresh_token as string;
    }
    expectLimited(await refresh());
    // The sign-in allowance is separate: two of three are left.
    const email = uniqueEmail('separate');
    await signUpRaw(server(), email);
    expect((await signInFrom(server(), from, email, PASSWORD)).status).toBe(200);
  });
});

describe('failed sign-ins: guessing is slowed down, the owner is never locked out', () => {
  const server = withLimits({
    AUTH_GUESSES_PER_ACCOUNT_AND_ADDRESS: '3',
    AUTH_GUESSES_PER_ADDRESS: '6',
    AUTH_GUESSES_PER_ACCOUNT: '5',
    AUTH_GUESS_ACCOUNT_PACE: '20ms',
    AUTH_GUESS_MAX_WAIT: '20s',
  });

  it('lets the owner sign in from a clean address however many strangers guessed', async () => {
    // Time stands still, so no wait runs out while the test goes on.
    vi.useFakeTimers({ toFake: ['Date'] });
    const email = uniqueEmail('owner');
    await signUpRaw(server(), email);
    const answers: number[] = [];
    for (const stranger of ['127.0.1.1', '127.0.1.2', '127.0.1.3', '127.0.1.4']) {
      for (let i = 0; i < 5; i += 1) {
        answers.push((await signInFrom(server(), stranger, email, `guess ${i}`)).status);
      }
    }
    // Each stranger had three guesses, then had to wait.
    expect(answers.filter((status) => status === 400)).toHaveLength(12);
    expect(answers.filter((status) => status === 429)).toHaveLength(8);

    expect((await signInFrom(server(), '127.0.1.9', email, PASSWORD)).status).toBe(200);
    const viaClient = await server().anon().auth.signInWithPassword({ email, password: PASSWORD });
    expect(viaClient.error).toBeNull();
    // A stranger still waits, also with the right password: the wait is the guesser's.
    expectLimited(await signInFrom(server(), '127.0.1.1', email, PASSWORD));
  });

  it('makes the guessing address wait longer after every further failure', async () => {
    const from = '127.0.2.1';
    const email = uniqueEmail('patient');
    await signUpRaw(server(), email);
    for (let i = 0; i < 3; i += 1) {
      expect((await signInFrom(server(), from, email, `guess ${i}`)).status).toBe(400);
    }
    const first = await signInFrom(server(), from, email, PASSWORD);
    expectLimited(first);
    expect(first.headers.get('retry-after')).toBe('1');

    passes(1_100);
    expect((await signInFrom(server(), from, email, 'guess 4')).status).toBe(400);
    const second = await signInFrom(server(), from, email, PASSWORD);
    expectLimited(second);
    expect(second.headers.get('retry-after')).toBe('2');
    passes(2_100);
    expect((await signInFrom(server(), from, email, PASSWORD)).status).toBe(200);
  });

  it('forgets a client’s failures on an account once it signs in there', async () => {
    const from = '127.0.2.2';
    const email = uniqueEmail('typo');
    await signUpRaw(server(), email);
    for (const _round of [1, 2, 3]) {
      expect((await signInFrom(server(), from, email, 'typo one')).status).toBe(400);
      expect((await signInFrom(server(), from, email, 'typo two')).status).toBe(400);
      expect((await signInFrom(server(), from, email, PASSWORD)).status).toBe(200);
    }
  });

  it('treats addresses without an account alike, so the limits reveal nothing', async () => {
    const from = '127.0.2.3';
    const email = uniqueEmail('no-account');
    for (let i = 0; i < 3; i += 1) {
      expect((await signInFrom(server(), from, email, PASSWORD)).body).toMatchObject({
        code: 'invalid_credentials',
      });
    }
    expectLimited(await signInFrom(server(), from, email, PASSWORD));
  });

  it('stops a client spraying many accounts without locking out others on its connection', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const shared = '127.0.3.1';
    const colleague = uniqueEmail('colleague');
    await signUpRaw(server(), colleague);
    expect((await signInFrom(server(), shared, colleague, PASSWORD)).status).toBe(200);

    // A stranger on the same connection sprays one password over 31 accounts.
    const answers: number[] = [];
    for (let i = 0; i < 31; i += 1) {
      answers.push(
        (await signInFrom(server(), shared, uniqueEmail(`spray-${i}`), 'Summer2026')).status,
      );
    }
    expect(answers.filter((status) => status === 400)).toHaveLength(6);
    expect(answers.filter((status) => status === 429)).toHaveLength(25);

    // The colleague, who signs in from here, still does; a newcomer from here has to wait.
    expect((await signInFrom(server(), shared, colleague, PASSWORD)).status).toBe(200);
    const newcomer = uniqueEmail('newcomer');
    await signUpRaw(server(), newcomer);
    expectLimited(await signInFrom(server(), shared, newcomer, PASSWORD));
  });
});

describe('guesses at one account from many addresses', () => {
  const server = withLimits({
    AUTH_GUESSES_PER_ACCOUNT_AND_ADDRESS: '3',
    AUTH_GUESSES_PER_ACCOUNT: '4',
    // One turn an hour past the budget, and no waiting for it: the bound is plain to count.
    AUTH_GUESS_ACCOUNT_PACE: '1h',
    AUTH_GUESS_MAX_WAIT: '1s',
  });

  it('are bounded, also when sent all at once, and the owner still signs in where they do', async () => {
    const email = uniqueEmail('targeted');
    await signUpRaw(server(), email);
    expect((await signInFrom(server(), '127.0.4.1', email, PASSWORD)).status).toBe(200);

    const strangers = Array.from({ length: 20 }, (_, i) => `127.0.5.${i + 1}`);
    const answers = await Promise.all(
      strangers.map((from) => signInFrom(server(), from, email, 'one guess each')),
    );
    const checked = answers.filter((response) => response.status === 400);
    const refused = answers.filter((response) => response.status === 429);
    // The account's budget of 4 and one turn; every other guess is refused unchecked.
    expect(checked).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const response of refused) expectLimited(response);

    // The owner, from the address they signed in from before, is not kept waiting.
    expect((await signInFrom(server(), '127.0.4.1', email, PASSWORD)).status).toBe(200);
  });
});

describe('e-mail spellings (F6)', () => {
  const server = withLimits({ AUTH_GUESSES_PER_ACCOUNT_AND_ADDRESS: '5' });

  it('share one budget whenever the database takes them for the same account', async () => {
    const local = `iris-${Date.now().toString(36)}`;
    const email = `${local}@kirk.example.test`;
    await signUpRaw(server(), email);
    const variants = [
      `${local.toUpperCase()}@KIRK.EXAMPLE.TEST`,
      // Turkish dotted capital I: Postgres lower() gives "i", JavaScript "i" + U+0307.
      `\u0130${local.slice(1)}@kirk.example.test`,
      // Kelvin sign for "K".
      `${local}@\u212Airk.example.test`,
    ];
    expect(variants[1]!.toLowerCase()).not.toBe(email);
    for (const variant of variants) {
      const { rows } = await server()
        .db.serverWork()
        .query<{ same: boolean }>('select lower($1::text) = lower($2::text) as same', [
          variant,
          email,
        ]);
      expect(rows[0]!.same).toBe(true);
    }

    // The dotted-I spelling reaches the account.
    expect((await signInFrom(server(), '127.0.6.1', variants[1]!, PASSWORD)).status).toBe(200);

    // Five failures, three of them with the spelling JavaScript lower-cases differently.
    const from = '127.0.6.2';
    for (const variant of [variants[1]!, variants[1]!, variants[1]!, variants[0]!, variants[2]!]) {
      expect((await signInFrom(server(), from, variant, 'wrong')).status).toBe(400);
    }
    expectLimited(await signInFrom(server(), from, email, PASSWORD));
    expectLimited(await signInFrom(server(), from, variants[1]!, PASSWORD));
  });
});

describe('the guess limiter', () => {
  const settings = {
    windowMs: 3_600_000,
    perAccountAndAddress: 1,
    perAddress: 1000,
    perAccount: 1000,
    accountPaceMs: 1000,
    maxWaitMs: 1000,
  };

  it('does not count an attempt the server could not check', () => {
    const limiter = new GuessLimiter({ ...settings, maxKeys: 100 });
    const first = limiter.begin('a@example.test', '192.0.2.1');
    if (!first.allowed) throw new Error('the first attempt was refused');
    first.attempt.abandoned();
    const second = limiter.begin('a@example.test', '192.0.2.1');
    expect(second.allowed).toBe(true);
    // A failure that stands does count: the budget of one is spent.
    expect(limiter.begin('a@example.test', '192.0.2.1').allowed).toBe(false);
  });

  it('remembers a bounded number of keys, forgetting the least recently used', () => {
    const fail = (limiter: GuessLimiter, account: string) => {
      const decision = limiter.begin(account, '192.0.2.1');
      expect(decision.allowed).toBe(true);
    };
    const roomy = new GuessLimiter({ ...settings, maxKeys: 100 });
    fail(roomy, 'a@example.test');
    fail(roomy, 'b@example.test');
    expect(roomy.begin('a@example.test', '192.0.2.1').allowed).toBe(false);

    // Three keys per attempt (the pair, the address, the account): with room for four, the
    // attempts on two more accounts push out what was kept of the first.
    const small = new GuessLimiter({ ...settings, maxKeys: 4 });
    fail(small, 'a@example.test');
    expect(small.begin('a@example.test', '192.0.2.1').allowed).toBe(false);
    fail(small, 'b@example.test');
    fail(small, 'c@example.test');
    expect(small.begin('a@example.test', '192.0.2.1').allowed).toBe(true);
  });
});

describe('requests without a client address', () => {
  const server = withLimits({ AUTH_GUESSES_PER_ACCOUNT_AND_ADDRESS: '2' });

  it('are limited as one client (in-process requests have no peer)', async () => {
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
    for (let i = 0; i < 2; i += 1) expect((await inProcess(email, 'wrong')).status).toBe(400);
    const limited = await inProcess(email, PASSWORD);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual(LIMITED);
    // Over the network, the owner is another client.
    const viaNetwork = await authRequest(server(), '/token?grant_type=password', {
      body: { email, password: PASSWORD },
    });
    expect(viaNetwork.status).toBe(200);
  });
});

// Issue 26: processes sharing one PostgreSQL count the request limits together; the
// PostgreSQL pass runs this (PGlite belongs to one process).
if (postgresAdminUrl()) {
  describe('several processes on one PostgreSQL', () => {
    const server = withLimits({
      // More than the guess test below asks for from its address, so its 429s are the guesses'.
      AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '8',
      AUTH_GUESSES_PER_ACCOUNT_AND_ADDRESS: '3',
    });
    let second: RunningServer;
    beforeAll(async () => {
      second = await startServer({
        // Another process: its own data directory and connections, the same database.
        config: {
          ...server().config,
          port: 0,
          dataDir: await scratchDir('steward-second-'),
          databaseUrl: server().databaseUrl!,
        },
      });
    });
    afterAll(async () => {
      await second?.close();
    });

    it('share the password guessing budgets, forgotten when they say nothing any more', async () => {
      const from = '127.0.0.41';
      const email = uniqueEmail('guessed');
      await signUpRaw(server(), email);
      const signIn = (via: { url: string }, password: string) =>
        signInFrom({ ...server(), url: via.url }, from, email, password);
      // Three failures in all, whichever process answered them.
      expect((await signIn(server(), 'guess 1')).status).toBe(400);
      expect((await signIn(second, 'guess 2')).status).toBe(400);
      expect((await signIn(server(), 'guess 3')).status).toBe(400);
      expectLimited(await signIn(second, PASSWORD));
      expectLimited(await signIn(server(), PASSWORD));

      const records = async () =>
        (
          await server()
            .db.serverWork()
            .query(`select 1 from _platform.guess_records where limiter = 'auth'`)
        ).rows.length;
      await requestAllowanceCleanupSchedule.run(server().db.serverWork(), new Date());
      expect(await records()).toBe(3);
      // An hour on (AUTH_GUESS_WINDOW), the failures no longer count and their rows go.
      passes(3_600_000);
      await requestAllowanceCleanupSchedule.run(server().db.serverWork(), new Date());
      expect(await records()).toBe(0);
      expect((await signIn(second, PASSWORD)).status).toBe(200);
    });

    it('share the per-address allowances, which are forgotten once full again', async () => {
      const from = '127.0.0.40';
      const signUp = (via: { url: string }) =>
        authRequestFrom({ ...server(), url: via.url }, from, '/signup', {
          email: uniqueEmail('shared'),
          password: PASSWORD,
        });
      // Eight in all, whichever process answers.
      for (let i = 0; i < 8; i += 1) {
        expect((await signUp(i % 2 === 0 ? server() : second)).status).toBe(200);
      }
      expectLimited(await signUp(second));
      expectLimited(await signUp(server()));

      const rows = async () =>
        (
          await server()
            .db.serverWork()
            .query(
              `select 1 from _platform.request_allowances where limiter = 'auth.sign_in_sign_ups' and key = $1`,
              [from],
            )
        ).rows.length;
      await requestAllowanceCleanupSchedule.run(server().db.serverWork(), new Date());
      expect(await rows()).toBe(1);
      // Five minutes on, the allowance is full again: its row goes.
      passes(300_000);
      await requestAllowanceCleanupSchedule.run(server().db.serverWork(), new Date());
      expect(await rows()).toBe(0);
      expect((await signUp(second)).status).toBe(200);
    });
  });
}
