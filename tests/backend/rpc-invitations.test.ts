import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  addMember,
  createOrganisation,
  errorMessage,
  invite,
  profileOf,
  signUp,
  uniqueEmail,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';

interface InvitationRow {
  id: string;
  email: string;
  role: string;
  full_name: string | null;
  organization_id: string;
  invited_by: string | null;
  expires_at: string;
  accepted_at: string | null;
  created_at: string;
}

describe('rpc invitations', () => {
  let server: TestServer;
  let org: Organisation;
  let other: Organisation;
  let admin: Person;
  let user: Person;
  let loner: Person;

  const invitationRow = async (id: string) =>
    (await server.service().from('user_invitations').select('*').eq('id', id)).data?.[0] as
      InvitationRow | undefined;
  const expire = async (id: string) =>
    unwrap(
      await server
        .service()
        .from('user_invitations')
        .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .eq('id', id),
      'expire invitation',
    );

  beforeAll(async () => {
    server = await startTestServer();
    org = await createOrganisation(server, 'Invite Church');
    other = await createOrganisation(server, 'Other Church');
    admin = await addMember(server, org, 'admin');
    user = await addMember(server, org, 'user');
    loner = await signUp(server, 'loner');
  });
  afterAll(() => server?.close());

  describe('invite_user', () => {
    it('returns the id, the normalised e-mail and a 64-hex-digit token, once', async () => {
      const email = uniqueEmail('new');
      const { data, error } = await admin.client
        .rpc('invite_user', {
          email: `  ${email.toUpperCase()} `,
          role: 'admin',
          full_name: ' Ann Lee ',
        })
        .single<{ id: string; email: string; token: string }>();
      expect(error).toBeNull();
      expect(data!.email).toBe(email);
      expect(data!.token).toMatch(/^[0-9a-f]{64}$/);

      const row = await invitationRow(data!.id);
      expect(row).toMatchObject({
        email,
        role: 'admin',
        full_name: 'Ann Lee',
        organization_id: org.id,
        invited_by: admin.userId,
        accepted_at: null,
      });
      // Seven days, set by the server.
      const days = (Date.parse(row!.expires_at) - Date.parse(row!.created_at)) / 86_400_000;
      expect(days).toBeCloseTo(7, 5);
      // The token is nowhere in the row the admins can list.
      const listed = await admin.client.from('user_invitations').select('*').eq('id', data!.id);
      expect(JSON.stringify(listed.data)).not.toContain(data!.token);
      expect(Object.keys(listed.data![0] as object).sort()).toEqual([
        'accepted_at',
        'created_at',
        'email',
        'expires_at',
        'full_name',
        'id',
        'invited_by',
        'organization_id',
        'role',
      ]);
    });

    it('gives a different token every time', async () => {
      const tokens = new Set<string>();
      for (let i = 0; i < 5; i++) tokens.add((await invite(admin, uniqueEmail('many'))).token);
      expect(tokens.size).toBe(5);
    });

    it('lists pending invitations with the inviter, as the user management page reads them', async () => {
      const email = uniqueEmail('listed');
      await invite(org.master, email);
      const { data, error } = await admin.client
        .from('user_invitations')
        .select('email, role, invited_by_profile:user_profiles!invited_by(full_name, email)')
        .eq('organization_id', org.id)
        .is('accepted_at', null)
        .order('created_at', { ascending: false });
      expect(error).toBeNull();
      expect(data).toContainEqual({
        email,
        role: 'user',
        invited_by_profile: { full_name: null, email: org.master.email },
      });
    });

    it('defaults the role to user and the full name to none', async () => {
      const { data } = await admin.client
        .rpc('invite_user', { email: uniqueEmail('plain'), role: null, full_name: '  ' })
        .single<{ id: string }>();
      expect(await invitationRow(data!.id)).toMatchObject({ role: 'user', full_name: null });
    });

    it('replaces a pending invitation to the same e-mail: new token, old link dead', async () => {
      const email = uniqueEmail('again');
      const first = await invite(admin, email, 'user', 'First');
      const second = await invite(org.master, email.toUpperCase(), 'admin', 'Second');
      expect(second.id).toBe(first.id);
      expect(second.token).not.toBe(first.token);
      expect(await invitationRow(first.id)).toMatchObject({
        role: 'admin',
        full_name: 'Second',
        invited_by: org.master.userId,
      });
      const pending = await server
        .service()
        .from('user_invitations')
        .select('id')
        .eq('email', email);
      expect(pending.data).toHaveLength(1);
      expect(errorMessage(await server.anon().rpc('get_invitation', { token: first.token }))).toBe(
        'Invalid or expired invitation',
      );
      expect((await server.anon().rpc('get_invitation', { token: second.token })).error).toBeNull();
    });

    it('lets another organisation invite the same e-mail independently', async () => {
      const email = uniqueEmail('shared');
      const mine = await invite(admin, email);
      const theirs = await invite(other.master, email);
      expect(theirs.id).not.toBe(mine.id);
    });

    it('refuses users and people without an organisation', async () => {
      expect(
        errorMessage(
          await user.client.rpc('invite_user', {
            email: uniqueEmail('x'),
            role: 'user',
            full_name: null,
          }),
        ),
      ).toBe('Insufficient permissions to invite users');
      expect(
        errorMessage(
          await loner.client.rpc('invite_user', {
            email: uniqueEmail('x'),
            role: 'user',
            full_name: null,
          }),
        ),
      ).toBe('No organization found');
    });

    it('refuses a deactivated admin', async () => {
      const inactive = await addMember(server, org, 'admin', 'inactive-admin');
      await org.master.client.rpc('deactivate_user', { user_id: inactive.userId });
      expect(
        errorMessage(
          await inactive.client.rpc('invite_user', {
            email: uniqueEmail('x'),
            role: 'user',
            full_name: null,
          }),
        ),
      ).toBe('Insufficient permissions to invite users');
    });

    it('refuses an invalid e-mail address', async () => {
      for (const email of [
        '',
        'plain',
        'a@b',
        '@example.test',
        'a b@example.test',
        null,
        `${'x'.repeat(250)}@example.test`,
      ]) {
        const result = await admin.client.rpc('invite_user', {
          email,
          role: 'user',
          full_name: null,
        });
        expect({ email, message: errorMessage(result) }).toEqual({
          email,
          message: 'Invalid email address',
        });
      }
    });

    it('refuses roles other than user and admin', async () => {
      for (const role of ['master_admin', 'owner']) {
        const result = await admin.client.rpc('invite_user', {
          email: uniqueEmail('role'),
          role,
          full_name: null,
        });
        expect(errorMessage(result)).toBe('Role must be viewer, user or admin');
      }
    });

    it('refuses an overlong full name', async () => {
      const result = await admin.client.rpc('invite_user', {
        email: uniqueEmail('name'),
        role: 'user',
        full_name: 'n'.repeat(201),
      });
      expect(errorMessage(result)).toBe('Full name must be at most 200 characters');
    });

    it('refuses an e-mail that already belongs to a member of the organisation', async () => {
      const result = await admin.client.rpc('invite_user', {
        email: user.email.toUpperCase(),
        role: 'admin',
        full_name: null,
      });
      expect(errorMessage(result)).toBe('User is already a member of this organization');
    });

    it('is not available to the anonymous role', async () => {
      const result = await server
        .anon()
        .rpc('invite_user', { email: uniqueEmail('anon'), role: 'user', full_name: null });
      expect(result.status).toBe(401);
    });
  });

  describe('get_invitation', () => {
    it('tells anyone with the token the e-mail, role, organisation and inviter', async () => {
      const email = uniqueEmail('look');
      const { token } = await invite(admin, email, 'admin', 'Lou Kup');
      const { data, error } = await server.anon().rpc('get_invitation', { token });
      expect(error).toBeNull();
      expect(data).toMatchObject({
        email,
        role: 'admin',
        full_name: 'Lou Kup',
        organization_name: 'Invite Church',
        invited_by_name: 'admin of Invite Church',
        invited_by_email: admin.email,
      });
      expect(Date.parse(data.expires_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    });

    it('says "Invalid or expired invitation" for unknown, empty, expired, accepted and cancelled tokens', async () => {
      const anon = server.anon();
      const expired = await invite(admin, uniqueEmail('expired'));
      await expire(expired.id);
      const cancelled = await invite(admin, uniqueEmail('cancelled'));
      unwrap(
        await admin.client.rpc('cancel_invitation', { invitation_id: cancelled.id }),
        'cancel',
      );
      const acceptedEmail = uniqueEmail('accepted');
      const accepted = await invite(admin, acceptedEmail);
      const person = await signUp(server, 'accepted', acceptedEmail);
      unwrap(await person.client.rpc('accept_invitation', { token: accepted.token }), 'accept');

      for (const token of [
        '',
        'nope',
        randomUUID(),
        expired.token,
        cancelled.token,
        accepted.token,
        null,
      ]) {
        expect(errorMessage(await anon.rpc('get_invitation', { token }))).toBe(
          'Invalid or expired invitation',
        );
      }
    });
  });

  describe('cancel_invitation', () => {
    it('lets admins delete a pending invitation of their organisation', async () => {
      for (const caller of [admin, org.master]) {
        const { id, token } = await invite(admin, uniqueEmail('cancel'));
        const result = await caller.client.rpc('cancel_invitation', { invitation_id: id });
        expect(result.error).toBeNull();
        expect(await invitationRow(id)).toBeUndefined();
        expect(errorMessage(await server.anon().rpc('get_invitation', { token }))).toBe(
          'Invalid or expired invitation',
        );
      }
    });

    it('refuses users and people without an organisation', async () => {
      const { id } = await invite(admin, uniqueEmail('keep'));
      expect(errorMessage(await user.client.rpc('cancel_invitation', { invitation_id: id }))).toBe(
        'Insufficient permissions to cancel invitations',
      );
      expect(errorMessage(await loner.client.rpc('cancel_invitation', { invitation_id: id }))).toBe(
        'No organization found',
      );
      expect(await invitationRow(id)).toBeDefined();
    });

    it('finds no invitation of another organisation, nor an accepted or unknown one', async () => {
      const theirs = await invite(other.master, uniqueEmail('theirs'));
      expect(
        errorMessage(await admin.client.rpc('cancel_invitation', { invitation_id: theirs.id })),
      ).toBe('Invitation not found');
      expect(await invitationRow(theirs.id)).toBeDefined();

      const email = uniqueEmail('joined');
      const accepted = await invite(admin, email);
      const person = await signUp(server, 'joined', email);
      unwrap(await person.client.rpc('accept_invitation', { token: accepted.token }), 'accept');
      expect(
        errorMessage(await admin.client.rpc('cancel_invitation', { invitation_id: accepted.id })),
      ).toBe('Invitation not found');
      expect(
        errorMessage(await admin.client.rpc('cancel_invitation', { invitation_id: randomUUID() })),
      ).toBe('Invitation not found');
    });

    it('is not available to the anonymous role', async () => {
      const { id } = await invite(admin, uniqueEmail('anon-cancel'));
      expect((await server.anon().rpc('cancel_invitation', { invitation_id: id })).status).toBe(
        401,
      );
      expect(await invitationRow(id)).toBeDefined();
    });
  });

  describe('accept_invitation', () => {
    it('joins the organisation with the invited role and name, and marks the invitation accepted', async () => {
      const email = uniqueEmail('joiner');
      const { id, token } = await invite(admin, email, 'admin', 'Jo Iner');
      // Signed up with different letter case: e-mail addresses compare case-insensitively.
      const person = await signUp(server, 'joiner', email.toUpperCase());
      const result = await person.client.rpc('accept_invitation', { token });
      expect(result.error).toBeNull();

      const invitation = await invitationRow(id);
      const profile = await profileOf(server, person.userId);
      expect(profile).toMatchObject({
        organization_id: org.id,
        role: 'admin',
        full_name: 'Jo Iner',
        is_active: true,
        invited_by: admin.userId,
        invited_at: invitation!.created_at,
      });
      expect(invitation!.accepted_at).not.toBeNull();
      // A member now: the organisation and its members are visible.
      expect((await person.client.from('organizations').select('name')).data).toEqual([
        { name: 'Invite Church' },
      ]);
      // And the token is spent.
      expect(errorMessage(await person.client.rpc('accept_invitation', { token }))).toBe(
        'Invalid or expired invitation',
      );
    });

    it('keeps a name the person already has when the invitation has none', async () => {
      const email = uniqueEmail('named');
      const { token } = await invite(admin, email, 'user', null);
      const person = await signUp(server, 'named', email);
      unwrap(
        await person.client
          .from('user_profiles')
          .update({ full_name: 'Own Name' })
          .eq('id', person.userId),
        'name',
      );
      unwrap(await person.client.rpc('accept_invitation', { token }), 'accept');
      expect((await profileOf(server, person.userId)).full_name).toBe('Own Name');
    });

    it('refuses a signed-in user with another e-mail address', async () => {
      const { token, id } = await invite(admin, uniqueEmail('meant'));
      const result = await loner.client.rpc('accept_invitation', { token });
      expect(errorMessage(result)).toBe('This invitation was sent to a different email address');
      expect((await invitationRow(id))!.accepted_at).toBeNull();
      expect((await profileOf(server, loner.userId)).organization_id).toBeNull();
    });

    it('refuses someone who already belongs to an organisation', async () => {
      const { token, id } = await invite(other.master, user.email);
      const result = await user.client.rpc('accept_invitation', { token });
      expect(errorMessage(result)).toBe('User already belongs to an organization');
      expect((await invitationRow(id))!.accepted_at).toBeNull();
      expect((await profileOf(server, user.userId)).organization_id).toBe(org.id);
    });

    it('refuses an expired or unknown token', async () => {
      const email = uniqueEmail('late');
      const { id, token } = await invite(admin, email);
      await expire(id);
      const person = await signUp(server, 'late', email);
      for (const candidate of [token, 'f'.repeat(64), '']) {
        expect(
          errorMessage(await person.client.rpc('accept_invitation', { token: candidate })),
        ).toBe('Invalid or expired invitation');
      }
      expect((await profileOf(server, person.userId)).organization_id).toBeNull();
    });

    it('is not available to the anonymous role', async () => {
      const { token, id } = await invite(admin, uniqueEmail('anon-accept'));
      expect((await server.anon().rpc('accept_invitation', { token })).status).toBe(401);
      expect((await invitationRow(id))!.accepted_at).toBeNull();
    });

    it('lets exactly one of several concurrent acceptances of one token succeed', async () => {
      for (let round = 0; round < 3; round++) {
        const email = uniqueEmail(`race${round}`);
        const { id, token } = await invite(admin, email);
        const person = await signUp(server, `race${round}`, email);
        // Four HTTP requests sent at once.
        const results = await Promise.all(
          Array.from({ length: 4 }, () => person.client.rpc('accept_invitation', { token })),
        );
        const succeeded = results.filter((r) => r.error === null);
        expect(succeeded).toHaveLength(1);
        for (const failed of results.filter((r) => r.error !== null)) {
          expect([
            'Invalid or expired invitation',
            'User already belongs to an organization',
          ]).toContain(errorMessage(failed));
        }
        expect((await invitationRow(id))!.accepted_at).not.toBeNull();
        expect((await profileOf(server, person.userId)).organization_id).toBe(org.id);
      }
    });
  });
});
