import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionHandler } from '../../supabase/functions/_shared/function-env.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { MockProvider } from './oauth-provider.ts';
import {
  addMember,
  callFunction,
  CLIENT_ID,
  connect,
  functionInstance,
  newOrganization,
  newTokenKey,
  setExpiry,
  startState,
  type Member,
  type Organization,
} from './oauth-support.ts';

// Where the `oauth` function may send users and post the client secret: only to the hosts of
// the provider's catalogue entry, and to the hosts the installation allows
// (OAUTH_ALLOWED_HOSTS). Checked when a master admin saves the addresses and again every time
// they are used, so an address that reached the database some other way is never used either.
// `provider` is the allowed mock provider; `outsider`, a second local server on another port,
// is a host nobody allowed: it must never receive a request.

const SECRET = 'hosts-client-secret-5d1e';
let server: TestServer;
let provider: MockProvider;
let outsider: MockProvider;
let fn: FunctionHandler;
let org: Organization;
let member: Member;

const outsiderToken = () => `${outsider.url}/token`;

/** Saves a provider's settings through the function, as the settings dialog does. */
const configure = (who: Member, fields: Record<string, unknown>, handler: FunctionHandler = fn) =>
  callFunction(handler, who.token, {
    action: 'configure',
    clientId: CLIENT_ID,
    clientSecret: SECRET,
    ...fields,
  });

/** Saves settings directly through the rpc, which knows nothing of the hosts. */
async function saveThroughRpc(providerId: string, authorizeUrl: string, tokenUrl: string) {
  const { error } = await org.masterAdmin.client.rpc('save_oauth_config', {
    provider_id: providerId,
    client_id: CLIENT_ID,
    client_secret: SECRET,
    authorize_url: authorizeUrl,
    token_url: tokenUrl,
  });
  if (error) throw new Error(error.message);
}

async function storedConfig(providerId: string) {
  const { rows } = await server.db.serverWork().query<Record<string, unknown>>(
    `select client_id, authorize_url, token_url from public.oauth_configs
      where organization_id = $1 and provider_id = $2`,
    [org.organizationId, providerId],
  );
  return rows[0];
}

beforeAll(async () => {
  [server, provider, outsider] = await Promise.all([
    startTestServer(),
    new MockProvider().start(),
    new MockProvider().start(),
  ]);
  // Exactly the mock provider's host and port: the outsider listens on the same address, on
  // another port.
  fn = functionInstance(server, newTokenKey(), { OAUTH_ALLOWED_HOSTS: new URL(provider.url).host });
  org = await newOrganization(server);
  member = await addMember(server, org);
});
afterAll(async () => {
  await Promise.all([server?.close(), provider?.stop(), outsider?.stop()]);
});
beforeEach(() => {
  provider.reset();
  outsider.reset();
});

describe('saving a provider’s addresses (action configure)', () => {
  it('refuses a token address outside the catalogue, with a clear message, and stores nothing', async () => {
    for (const tokenUrl of [
      outsiderToken(),
      'https://evil.example/token',
      'https://slack.com.evil.example/api/oauth.v2.access',
      'https://slack.com:8443/api/oauth.v2.access',
      'https://oauth2.googleapis.com/token', // another provider's host
    ]) {
      expect({
        tokenUrl,
        answer: await configure(org.masterAdmin, { providerId: 'slack', tokenUrl }),
      }).toMatchObject({
        tokenUrl,
        answer: {
          status: 400,
          body: {
            error:
              'Token URL: The address must be on slack.com, or on a host this installation allows',
          },
        },
      });
    }
    expect(
      await configure(org.masterAdmin, {
        providerId: 'slack',
        authorizeUrl: 'https://evil.example/authorize',
      }),
    ).toMatchObject({
      status: 400,
      body: {
        error:
          'Authorization URL: The address must be on slack.com, or on a host this installation allows',
      },
    });
    expect(await storedConfig('slack')).toBeUndefined();
    expect(outsider.requests).toEqual([]);
  });

  it('refuses addresses that are not plain https (or http to an allowed host of this machine)', async () => {
    const cases: [string, string][] = [
      ['http://slack.com/api/oauth.v2.access', 'Token URL: The address must start with https://'],
      ['ftp://slack.com/token', 'Token URL: The address must start with https://'],
      ['not an address', 'Token URL: Enter a full address, starting with https://'],
      [
        'https://user:pass@slack.com/api/oauth.v2.access',
        'Token URL: The address must not contain a user name or password',
      ],
    ];
    for (const [tokenUrl, error] of cases) {
      expect({
        tokenUrl,
        answer: await configure(org.masterAdmin, { providerId: 'slack', tokenUrl }),
      }).toMatchObject({ tokenUrl, answer: { status: 400, body: { error } } });
    }
    expect(await storedConfig('slack')).toBeUndefined();
  });

  it('accepts the catalogue’s own hosts, and BambooHR’s company sub-domains only', async () => {
    expect(
      await configure(org.masterAdmin, {
        providerId: 'microsoft-365',
        authorizeUrl: 'https://login.microsoftonline.com/contoso/oauth2/v2.0/authorize',
        tokenUrl: 'https://login.microsoftonline.com/contoso/oauth2/v2.0/token',
      }),
    ).toMatchObject({ status: 200, body: { saved: true } });
    expect(await storedConfig('microsoft-365')).toEqual({
      client_id: CLIENT_ID,
      authorize_url: 'https://login.microsoftonline.com/contoso/oauth2/v2.0/authorize',
      token_url: 'https://login.microsoftonline.com/contoso/oauth2/v2.0/token',
    });

    const bamboo = (host: string) => ({
      providerId: 'bamboohr',
      authorizeUrl: `https://${host}/authorize.php?request=authorize`,
      tokenUrl: `https://${host}/token.php?request=token`,
    });
    for (const host of ['acme.bamboohr.com.evil.example', 'a.b.bamboohr.com', 'bamboohr.com']) {
      expect({ host, answer: await configure(org.masterAdmin, bamboo(host)) }).toMatchObject({
        host,
        answer: {
          status: 400,
          body: {
            error:
              'Authorization URL: The address must be on *.bamboohr.com, or on a host this installation allows',
          },
        },
      });
    }
    expect((await configure(org.masterAdmin, bamboo('acme.bamboohr.com'))).status).toBe(200);
    expect(await storedConfig('bamboohr')).toMatchObject({
      token_url: 'https://acme.bamboohr.com/token.php?request=token',
    });
  });

  it('accepts a host the installation allows, and the connection then works', async () => {
    expect(
      await configure(org.masterAdmin, {
        providerId: 'github',
        authorizeUrl: ` ${provider.authorizeUrl} `,
        tokenUrl: provider.tokenUrl,
      }),
    ).toMatchObject({ status: 200, body: { saved: true } });
    expect(await storedConfig('github')).toMatchObject({
      authorize_url: provider.authorizeUrl,
      token_url: provider.tokenUrl,
    });
    const connection = await connect(fn, member, 'github');
    expect(connection).toMatchObject({ provider_id: 'github', is_active: true });
    expect(provider.grants('authorization_code')[0]!.form.client_secret).toBe(SECRET);
  });

  it('allows a host on any port, or a host and port on that port only', async () => {
    const anyPort = functionInstance(server, newTokenKey(), { OAUTH_ALLOWED_HOSTS: '127.0.0.1' });
    expect(
      (
        await configure(
          org.masterAdmin,
          { providerId: 'youtube', tokenUrl: outsiderToken() },
          anyPort,
        )
      ).status,
    ).toBe(200);
    const otherPort = functionInstance(server, newTokenKey(), {
      OAUTH_ALLOWED_HOSTS: `auth.example.org, 127.0.0.1:${Number(new URL(outsider.url).port) + 1}`,
    });
    expect(
      (
        await configure(
          org.masterAdmin,
          { providerId: 'youtube', tokenUrl: outsiderToken() },
          otherPort,
        )
      ).status,
    ).toBe(400);
    expect(() =>
      functionInstance(server, newTokenKey(), { OAUTH_ALLOWED_HOSTS: 'https://auth.example.org' }),
    ).toThrow('OAUTH_ALLOWED_HOSTS: "https://auth.example.org" is not a host name');
  });

  it('leaves the rest to the database: master admins only, with its own texts', async () => {
    const admin = await addMember(server, org, 'admin');
    for (const who of [member, admin]) {
      expect(
        await configure(who, { providerId: 'mailchimp', tokenUrl: provider.tokenUrl }),
      ).toMatchObject({
        status: 400,
        body: { error: 'Only master admins can configure OAuth providers' },
      });
    }
    expect(
      await configure(org.masterAdmin, { providerId: 'mailchimp', clientId: ' ' }),
    ).toMatchObject({
      status: 400,
      body: { error: 'Client ID is required' },
    });
    expect(
      await configure(org.masterAdmin, { providerId: 'mailchimp', clientId: 'c'.repeat(501) }),
    ).toMatchObject({ status: 400, body: { error: 'Client ID is too long' } });
    expect(await configure(org.masterAdmin, { providerId: 'myspace' })).toMatchObject({
      status: 404,
      body: { error: 'Provider myspace not found' },
    });
    expect(
      await configure(org.masterAdmin, { providerId: 'mailchimp', tokenUrl: 42 }),
    ).toMatchObject({ status: 400, body: { error: 'tokenUrl must be a string' } });
    expect(await storedConfig('mailchimp')).toBeUndefined();
  });
});

describe('using the addresses', () => {
  const refusal = (providerId: string, field: string, hosts: string) => ({
    status: 400,
    body: {
      error: `OAuth not configured for ${providerId} (${field}: The address must be on ${hosts}, or on a host this installation allows)`,
    },
  });

  it('refuses to start with an address saved around the check (through the rpc)', async () => {
    await saveThroughRpc('slack', provider.authorizeUrl, outsiderToken());
    expect(
      await callFunction(fn, member.token, { action: 'start', providerId: 'slack' }),
    ).toMatchObject(refusal('slack', 'Token URL', 'slack.com'));
    await saveThroughRpc('slack', `${outsider.url}/authorize`, provider.tokenUrl);
    expect(
      await callFunction(fn, member.token, { action: 'start', providerId: 'slack' }),
    ).toMatchObject(refusal('slack', 'Authorization URL', 'slack.com'));
    expect(outsider.requests).toEqual([]);
  });

  it('never posts the code or the secret to a token address changed after the start', async () => {
    await saveThroughRpc('quickbooks', provider.authorizeUrl, provider.tokenUrl);
    const state = await startState(fn, member, 'quickbooks');
    await saveThroughRpc('quickbooks', provider.authorizeUrl, outsiderToken());
    expect(
      await callFunction(fn, member.token, {
        action: 'complete',
        providerId: 'quickbooks',
        code: 'the-code',
        state,
      }),
    ).toMatchObject(
      refusal('quickbooks', 'Token URL', 'appcenter.intuit.com or oauth.platform.intuit.com'),
    );
    expect(outsider.requests).toEqual([]);
    expect(provider.calls).toEqual([]);
  });

  it('never posts the refresh token or the secret to a token address changed after connecting', async () => {
    await saveThroughRpc('gusto', provider.authorizeUrl, provider.tokenUrl);
    const connection = await connect(fn, member, 'gusto');
    await saveThroughRpc('gusto', provider.authorizeUrl, outsiderToken());
    await setExpiry(server, connection.id as string, 60_000);
    provider.reset();
    expect(
      await callFunction(fn, member.token, { action: 'token', providerId: 'gusto' }),
    ).toMatchObject(refusal('gusto', 'Token URL', 'api.gusto.com'));
    expect(outsider.requests).toEqual([]);
    expect(provider.calls).toEqual([]);
  });

  it('reaches the outsider once the installation allows it (control: the address works)', async () => {
    const allowing = functionInstance(server, newTokenKey(), {
      OAUTH_ALLOWED_HOSTS: `${new URL(provider.url).host},${new URL(outsider.url).host}`,
    });
    await saveThroughRpc('slack', provider.authorizeUrl, outsiderToken());
    const state = await startState(allowing, member, 'slack');
    const answer = await callFunction(allowing, member.token, {
      action: 'complete',
      providerId: 'slack',
      code: 'the-code',
      state,
    });
    expect(answer.status).toBe(200);
    expect(outsider.grants('authorization_code')[0]!.form.client_secret).toBe(SECRET);
  });
});
