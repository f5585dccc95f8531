import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  PASSWORD,
  authRequestFrom,
  jwtPayload,
  requestFrom,
  uniqueEmail,
  type AuthResponse,
} from './auth-helpers.ts';

// Issue 26: the client's address behind a trusted load balancer. Requests come from loopback
// addresses (127.0.0.x) as from different machines: 127.0.0.30 plays the balancer, the
// addresses in X-Forwarded-For (documentation ranges) the clients behind it.

const BALANCER = '127.0.0.30';
/** Two sign-ups or sign-ins per client address in five minutes. */
const LIMIT = '2';

function withServer(env: Record<string, string>) {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      schema: 'platform',
      env: { AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: LIMIT, ...env },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => server;
}

const signUpFrom = (server: TestServer, from: string, forwardedFor?: string) =>
  authRequestFrom(
    server,
    from,
    '/signup',
    { email: uniqueEmail('behind-proxy'), password: PASSWORD },
    forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  );

/** The address the session of a sign-up's answer recorded (GoTrue's `auth.sessions.ip`). */
async function sessionAddress(server: TestServer, answer: AuthResponse): Promise<string | null> {
  const { session_id } = jwtPayload(answer.body!.access_token as string);
  const { rows } = await server.db
    .serverWork()
    .query<{ ip: string | null }>('select host(ip) as ip from auth.sessions where id = $1::uuid', [
      session_id,
    ]);
  return rows[0]!.ip;
}

function expectLimited(answer: AuthResponse) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({
    code: 'over_request_rate_limit',
    message: 'Request rate limit reached',
  });
}

describe('without trusted proxies (the default)', () => {
  const server = withServer({});

  it('ignores X-Forwarded-For: a client cannot choose the address its limits count', async () => {
    const first = await signUpFrom(server(), '127.0.0.31', '203.0.113.1');
    expect(first.status).toBe(200);
    expect(await sessionAddress(server(), first)).toBe('127.0.0.31');
    expect((await signUpFrom(server(), '127.0.0.31', '203.0.113.2')).status).toBe(200);
    // A third address in the header, the same peer: refused.
    expectLimited(await signUpFrom(server(), '127.0.0.31', '203.0.113.3'));
    expectLimited(await signUpFrom(server(), '127.0.0.31'));
  });
});

describe('behind a trusted balancer ([server] trusted_proxies)', () => {
  // 127.0.0.1 plays a reverse proxy on the server's own machine.
  const server = withServer({
    STEWARD_TRUSTED_PROXIES: `${BALANCER}/32, 10.0.0.0/8, 127.0.0.1/32`,
  });

  it('counts each client behind the balancer apart, by the address the balancer appended', async () => {
    const first = await signUpFrom(server(), BALANCER, '203.0.113.10');
    expect(first.status).toBe(200);
    expect(await sessionAddress(server(), first)).toBe('203.0.113.10');
    expect((await signUpFrom(server(), BALANCER, '203.0.113.10')).status).toBe(200);
    expectLimited(await signUpFrom(server(), BALANCER, '203.0.113.10'));

    // Another church behind the same balancer has its own allowance.
    const other = await signUpFrom(server(), BALANCER, '203.0.113.11');
    expect(other.status).toBe(200);
    expect(await sessionAddress(server(), other)).toBe('203.0.113.11');
  });

  it('ignores what a client wrote left of the address the balancer appended', async () => {
    // The client sends its own X-Forwarded-For, a new address each time; the balancer appends
    // the address it saw. Only the right-most address that is no trusted proxy counts.
    const forged = (i: number) => `198.51.100.${i}, 203.0.113.20`;
    const first = await signUpFrom(server(), BALANCER, forged(1));
    expect(first.status).toBe(200);
    expect(await sessionAddress(server(), first)).toBe('203.0.113.20');
    expect((await signUpFrom(server(), BALANCER, forged(2))).status).toBe(200);
    expectLimited(await signUpFrom(server(), BALANCER, forged(3)));
  });

  it('looks through every trusted proxy of a chain to the client', async () => {
    // A client, then an internal proxy at 10.1.2.3 (trusted), then the balancer.
    const answer = await signUpFrom(server(), BALANCER, '198.51.100.9, 203.0.113.30, 10.1.2.3');
    expect(answer.status).toBe(200);
    expect(await sessionAddress(server(), answer)).toBe('203.0.113.30');
  });

  it('counts a forwarded IPv6 client by its /64, as one reached directly', async () => {
    const first = await signUpFrom(server(), BALANCER, '2001:db8:1:2::5');
    expect(first.status).toBe(200);
    expect(await sessionAddress(server(), first)).toBe('2001:db8:1:2::5');
    expect((await signUpFrom(server(), BALANCER, '2001:db8:1:2::6')).status).toBe(200);
    expectLimited(await signUpFrom(server(), BALANCER, '2001:db8:1:2:ffff::7'));
    expect((await signUpFrom(server(), BALANCER, '2001:db8:1:3::5')).status).toBe(200);
  });

  it('believes no header from a peer it does not trust', async () => {
    const first = await signUpFrom(server(), '127.0.0.32', '203.0.113.40');
    expect(first.status).toBe(200);
    expect(await sessionAddress(server(), first)).toBe('127.0.0.32');
    expect((await signUpFrom(server(), '127.0.0.32', '203.0.113.41')).status).toBe(200);
    expectLimited(await signUpFrom(server(), '127.0.0.32', '203.0.113.42'));
  });

  it('counts an entry that is no address as the balancer that passed it on', async () => {
    const answer = await signUpFrom(server(), BALANCER, 'unknown');
    expect(answer.status).toBe(200);
    expect(await sessionAddress(server(), answer)).toBe(BALANCER);
  });

  it('refuses a backup asked for from elsewhere through a proxy on this machine', async () => {
    // The peer is this machine, but the client is not: only the server itself may ask.
    const answer = await requestFrom(
      server(),
      '127.0.0.1',
      '/backup/v1/snapshot',
      {},
      {
        apikey: server().keys.serviceRoleKey,
        authorization: `Bearer ${server().keys.serviceRoleKey}`,
        'x-forwarded-for': '203.0.113.50',
      },
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      error: 'forbidden',
      message: 'a backup can only be asked for from the server itself',
    });
  });
});
