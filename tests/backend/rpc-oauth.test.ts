import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  addDeactivatedMember,
  addMember,
  createOrganisation,
  errorMessage,
  signUp,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';

const config = (overrides: Record<string, unknown> = {}) => ({
  provider_id: 'slack',
  client_id: 'client-123',
  client_secret: 'shh-secret',
  authorize_url: null,
  token_url: null,
  ...overrides,
});

describe('rpc save_oauth_config and disconnect_oauth_connection', () => {
  let server: TestServer;
  let org: Organisation;
  let other: Organisation;
  let admin: Person;
  let user: Person;
  let loner: Person;

  const storedConfig = async (organizationId: string, providerId: string) =>
    (
      await server
        .service()
        .from('oauth_configs')
        .select('*')
        .eq('organization_id', organizationId)
        .eq('provider_id', providerId)
    ).data?.[0] as Record<string, unknown> | undefined;

  /** A connection as the `oauth` edge function stores it (service role), with its tokens. */
  const connect = async (person: Person, organisation: Organisation, providerId = 'github') => {
    const row = unwrap(
      await server
        .service()
        .from('oauth_connections')
        .insert({
          provider_id: providerId,
          user_id: person.userId,
          organization_id: organisation.id,
          scopes: ['repo', 'read:org'],
          expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        })
        .select('id')
        .single(),
      'insert connection',
    ) as { id: string };
    unwrap(
      await server.service().from('oauth_connection_tokens').insert({
        connection_id: row.id,
        access_token: 'enc:access',
        refresh_token: 'enc:refresh',
      }),
      'insert tokens',
    );
    return row.id;
  };

  beforeAll(async () => {
    server = await startTestServer();
    org = await createOrganisation(server, 'OAuth Church');
    other = await createOrganisation(server, 'Other Church');
    admin = await addMember(server, org, 'admin');
    user = await addMember(server, org, 'user');
    loner = await signUp(server, 'loner');
  });
  afterAll(() => server?.close());

  describe('save_oauth_config', () => {
    it('stores the configuration; members see whether a secret is set, never the secret', async () => {
      const result = await org.master.client.rpc(
        'save_oauth_config',
        config({
          authorize_url: 'https://login.example.test/auth',
          token_url: 'https://login.example.test/token',
        }),
      );
      expect(result.error).toBeNull();
      expect(await storedConfig(org.id, 'slack')).toMatchObject({
        client_id: 'client-123',
        client_secret: 'shh-secret',
      });
      for (const member of [org.master, admin, user]) {
        const { data, error } = await member.client.from('oauth_provider_settings').select('*');
        expect(error).toBeNull();
        expect(data).toEqual([
          {
            provider_id: 'slack',
            client_id: 'client-123',
            has_client_secret: true,
            authorize_url: 'https://login.example.test/auth',
            token_url: 'https://login.example.test/token',
            updated_at: expect.any(String),
          },
        ]);
      }
      // Another organisation sees none of it.
      expect((await other.master.client.from('oauth_provider_settings').select('*')).data).toEqual(
        [],
      );
    });

    it('keeps the stored secret when the new one is null or blank, and replaces it otherwise', async () => {
      await org.master.client.rpc('save_oauth_config', config({ provider_id: 'gusto' }));
      for (const client_secret of [null, '   ']) {
        unwrap(
          await org.master.client.rpc(
            'save_oauth_config',
            config({ provider_id: 'gusto', client_id: 'changed', client_secret }),
          ),
          'save',
        );
        expect(await storedConfig(org.id, 'gusto')).toMatchObject({
          client_id: 'changed',
          client_secret: 'shh-secret',
        });
      }
      unwrap(
        await org.master.client.rpc(
          'save_oauth_config',
          config({ provider_id: 'gusto', client_secret: 'new-secret' }),
        ),
        'save',
      );
      expect((await storedConfig(org.id, 'gusto'))!.client_secret).toBe('new-secret');
    });

    it('records a configuration without a secret as such', async () => {
      unwrap(
        await org.master.client.rpc(
          'save_oauth_config',
          config({ provider_id: 'mailchimp', client_secret: null }),
        ),
        'save',
      );
      const { data } = await user.client
        .from('oauth_provider_settings')
        .select('provider_id, has_client_secret')
        .eq('provider_id', 'mailchimp');
      expect(data).toEqual([{ provider_id: 'mailchimp', has_client_secret: false }]);
    });

    it('refuses everyone but master admins', async () => {
      for (const caller of [admin, user]) {
        expect(
          errorMessage(
            await caller.client.rpc('save_oauth_config', config({ provider_id: 'bamboohr' })),
          ),
        ).toBe('Only master admins can configure OAuth providers');
      }
      expect(
        errorMessage(
          await loner.client.rpc('save_oauth_config', config({ provider_id: 'bamboohr' })),
        ),
      ).toBe('No organization found');
      expect(
        (await server.anon().rpc('save_oauth_config', config({ provider_id: 'bamboohr' }))).status,
      ).toBe(401);
      expect(await storedConfig(org.id, 'bamboohr')).toBeUndefined();
    });

    it('validates every field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ provider_id: 'Not An Id' }, 'Invalid provider id'],
        [{ provider_id: '' }, 'Invalid provider id'],
        [{ provider_id: null }, 'Invalid provider id'],
        [{ client_id: '  ' }, 'Client ID is required'],
        [{ client_id: null }, 'Client ID is required'],
        [{ client_id: 'c'.repeat(501) }, 'Client ID is too long'],
        [{ client_secret: 's'.repeat(2001) }, 'Client secret is too long'],
        [
          { authorize_url: 'javascript:alert(1)' },
          'Authorization URL must be an http or https address',
        ],
        [
          { authorize_url: 'https://has space.test' },
          'Authorization URL must be an http or https address',
        ],
        [{ token_url: 'ftp://files.example.test' }, 'Token URL must be an http or https address'],
      ];
      for (const [overrides, message] of cases) {
        const result = await org.master.client.rpc(
          'save_oauth_config',
          config({ provider_id: 'youtube', ...overrides }),
        );
        expect({ overrides, message: errorMessage(result) }).toEqual({ overrides, message });
      }
      expect(await storedConfig(org.id, 'youtube')).toBeUndefined();
    });
  });

  describe('disconnect_oauth_connection', () => {
    it("marks the caller's own connection inactive and deletes its tokens", async () => {
      const id = await connect(user, org);
      const before = await user.client.from('oauth_connections').select('id, is_active');
      expect(before.data).toEqual([{ id, is_active: true }]);

      const result = await user.client.rpc('disconnect_oauth_connection', { connection_id: id });
      expect(result.error).toBeNull();
      const after = await user.client
        .from('oauth_connections')
        .select('id, is_active, needs_reconnect');
      expect(after.data).toEqual([{ id, is_active: false, needs_reconnect: false }]);
      const tokens = await server
        .service()
        .from('oauth_connection_tokens')
        .select('connection_id')
        .eq('connection_id', id);
      expect(tokens.data).toEqual([]);
    });

    it("finds no connection of anyone else, even the caller's own admin's", async () => {
      const id = await connect(admin, org, 'slack');
      const theirs = await connect(other.master, other, 'slack');
      for (const [caller, connectionId] of [
        [user, id],
        [org.master, id],
        [org.master, theirs],
        [user, randomUUID()],
      ] as const) {
        expect(
          errorMessage(
            await caller.client.rpc('disconnect_oauth_connection', { connection_id: connectionId }),
          ),
        ).toBe('Connection not found');
      }
      const rows = await server
        .service()
        .from('oauth_connections')
        .select('is_active')
        .in('id', [id, theirs]);
      expect(rows.data).toEqual([{ is_active: true }, { is_active: true }]);
    });

    it('refuses a deactivated member, even for their own connection, and the anonymous role', async () => {
      const deactivated = await addDeactivatedMember(server, org);
      const id = await connect(deactivated, org, 'slack');
      expect(
        errorMessage(
          await deactivated.client.rpc('disconnect_oauth_connection', { connection_id: id }),
        ),
      ).toBe('Connection not found');
      expect(
        (await server.anon().rpc('disconnect_oauth_connection', { connection_id: id })).status,
      ).toBe(401);
      const rows = await server
        .service()
        .from('oauth_connections')
        .select('is_active')
        .eq('id', id);
      expect(rows.data).toEqual([{ is_active: true }]);
    });
  });
});
