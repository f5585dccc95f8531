import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  addDeactivatedMember,
  createOrganisation,
  errorMessage,
  profileOf,
  signUp,
  type Organisation,
} from '../security/world.ts';

describe('rpc create_organization', () => {
  let server: TestServer;
  let existing: Organisation;

  beforeAll(async () => {
    server = await startTestServer();
    existing = await createOrganisation(server, 'Existing Church');
  });
  afterAll(() => server?.close());

  it('creates the organisation with the trimmed name and makes the caller its master admin', async () => {
    const person = await signUp(server, 'founder');
    const { data, error } = await person.client.rpc('create_organization', {
      name: '  Grace Chapel  ',
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ name: 'Grace Chapel', created_by: person.userId });
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);

    const profile = await profileOf(server, person.userId);
    expect(profile).toMatchObject({
      organization_id: data.id,
      role: 'master_admin',
      is_active: true,
    });
    // The new master admin now reads the organisation through its policies.
    const read = await person.client.from('organizations').select('id, name');
    expect(read.data).toEqual([{ id: data.id, name: 'Grace Chapel' }]);
  });

  it('refuses a caller who already belongs to an organisation', async () => {
    const result = await existing.master.client.rpc('create_organization', { name: 'Second' });
    expect(errorMessage(result)).toBe('User already belongs to an organization');
    const deactivated = await addDeactivatedMember(server, existing);
    const again = await deactivated.client.rpc('create_organization', { name: 'Escape' });
    expect(errorMessage(again)).toBe('User already belongs to an organization');
    const { data } = await server.service().from('organizations').select('id').eq('name', 'Second');
    expect(data).toEqual([]);
  });

  it('refuses a name that is empty after trimming, or missing', async () => {
    const person = await signUp(server, 'blank');
    for (const name of ['', '   \t ', null]) {
      const result = await person.client.rpc('create_organization', { name });
      expect(errorMessage(result)).toBe('Organization name is required');
    }
    expect((await profileOf(server, person.userId)).organization_id).toBeNull();
  });

  it('refuses a name longer than 200 characters', async () => {
    const person = await signUp(server, 'long');
    const result = await person.client.rpc('create_organization', { name: 'x'.repeat(201) });
    expect(errorMessage(result)).toBe('Organization name must be at most 200 characters');
    const ok = await person.client.rpc('create_organization', { name: 'y'.repeat(200) });
    expect(ok.error).toBeNull();
  });

  it('is not available to the anonymous role', async () => {
    const result = await server.anon().rpc('create_organization', { name: 'Anonymous' });
    expect(result.status).toBe(401);
    expect(result.error?.code).toBe('42501');
    const { data } = await server
      .service()
      .from('organizations')
      .select('id')
      .eq('name', 'Anonymous');
    expect(data).toEqual([]);
  });

  it('answers "User not authenticated" to user-less calls (the service role) of every function acting for a user', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const calls: [string, Record<string, unknown>][] = [
      ['create_organization', { name: 'Service Org' }],
      ['invite_user', { email: 'someone@example.test', role: 'user', full_name: null }],
      ['update_user_role', { user_id: id, new_role: 'admin' }],
      ['deactivate_user', { user_id: id }],
      ['reactivate_user', { user_id: id }],
      ['cancel_invitation', { invitation_id: id }],
      ['accept_invitation', { token: 'f'.repeat(64) }],
      [
        'save_oauth_config',
        {
          provider_id: 'x',
          client_id: 'x',
          client_secret: null,
          authorize_url: null,
          token_url: null,
        },
      ],
      ['disconnect_oauth_connection', { connection_id: id }],
    ];
    for (const [fn, args] of calls) {
      const result = await server.service().rpc(fn, args);
      expect({ fn, message: errorMessage(result) }).toEqual({
        fn,
        message: 'User not authenticated',
      });
    }
  });

  it('creates exactly one organisation when the same user calls twice at once', async () => {
    const person = await signUp(server, 'twice');
    const results = await Promise.all(
      ['Twice A', 'Twice B'].map((name) => person.client.rpc('create_organization', { name })),
    );
    expect(results.filter((r) => r.error === null)).toHaveLength(1);
    expect(results.map(errorMessage).filter(Boolean)).toEqual([
      'User already belongs to an organization',
    ]);
    const { data } = await server
      .service()
      .from('organizations')
      .select('id')
      .eq('created_by', person.userId);
    expect(data).toHaveLength(1);
  });
});
