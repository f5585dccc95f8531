import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  addDeactivatedMember,
  addMember,
  createOrganisation,
  errorMessage,
  profileOf,
  restoreProfile,
  signUp,
  type Organisation,
  type Person,
} from '../security/world.ts';

// update_user_role, deactivate_user and reactivate_user: who may call them, and every error.
describe('rpc team administration', () => {
  let server: TestServer;
  let org: Organisation;
  let other: Organisation;
  let admin: Person;
  let user: Person;
  let target: Person;
  let otherUser: Person;
  let loner: Person;

  beforeAll(async () => {
    server = await startTestServer();
    org = await createOrganisation(server, 'Team Church');
    other = await createOrganisation(server, 'Other Church');
    admin = await addMember(server, org, 'admin');
    user = await addMember(server, org, 'user');
    target = await addMember(server, org, 'user', 'target');
    otherUser = await addMember(server, other, 'user', 'other-user');
    loner = await signUp(server, 'loner');
  });
  afterAll(() => server?.close());

  describe('update_user_role', () => {
    it('lets the master admin move a member between user and admin', async () => {
      const up = await org.master.client.rpc('update_user_role', {
        user_id: target.userId,
        new_role: 'admin',
      });
      expect(up.error).toBeNull();
      expect(up.status).toBe(204);
      expect((await profileOf(server, target.userId)).role).toBe('admin');
      const down = await org.master.client.rpc('update_user_role', {
        user_id: target.userId,
        new_role: 'user',
      });
      expect(down.error).toBeNull();
      expect((await profileOf(server, target.userId)).role).toBe('user');
    });

    it('refuses everyone but master admins', async () => {
      for (const caller of [admin, user]) {
        const result = await caller.client.rpc('update_user_role', {
          user_id: target.userId,
          new_role: 'admin',
        });
        expect(errorMessage(result)).toBe('Only master admins can change user roles');
      }
      const result = await loner.client.rpc('update_user_role', {
        user_id: target.userId,
        new_role: 'admin',
      });
      expect(errorMessage(result)).toBe('No organization found');
      expect((await profileOf(server, target.userId)).role).toBe('user');
    });

    it('only gives the roles user and admin', async () => {
      for (const new_role of ['master_admin', 'owner', '', null]) {
        const result = await org.master.client.rpc('update_user_role', {
          user_id: target.userId,
          new_role,
        });
        expect(errorMessage(result)).toBe('Role must be viewer, user or admin');
      }
      expect((await profileOf(server, target.userId)).role).toBe('user');
    });

    it("never changes the caller's own role", async () => {
      const result = await org.master.client.rpc('update_user_role', {
        user_id: org.master.userId,
        new_role: 'user',
      });
      expect(errorMessage(result)).toBe('You cannot change your own role');
      expect((await profileOf(server, org.master.userId)).role).toBe('master_admin');
    });

    it('finds no user outside the organisation', async () => {
      for (const user_id of [otherUser.userId, other.master.userId, randomUUID()]) {
        const result = await org.master.client.rpc('update_user_role', {
          user_id,
          new_role: 'admin',
        });
        expect(errorMessage(result)).toBe('User not found');
      }
      expect((await profileOf(server, otherUser.userId)).role).toBe('user');
    });

    it('never demotes a master admin', async () => {
      // A second master admin cannot arise through the API; an installation may still have one.
      const second = await addMember(server, org, 'user', 'second-master');
      await restoreProfile(server, second.userId, { role: 'master_admin' });
      const result = await org.master.client.rpc('update_user_role', {
        user_id: second.userId,
        new_role: 'user',
      });
      expect(errorMessage(result)).toBe('Cannot change the role of a master admin');
      expect((await profileOf(server, second.userId)).role).toBe('master_admin');
    });

    it('is not available to the anonymous role', async () => {
      const result = await server
        .anon()
        .rpc('update_user_role', { user_id: target.userId, new_role: 'admin' });
      expect(result.status).toBe(401);
    });
  });

  describe('deactivate_user and reactivate_user', () => {
    it('lets admins and master admins deactivate and reactivate a member', async () => {
      for (const caller of [admin, org.master]) {
        const off = await caller.client.rpc('deactivate_user', { user_id: target.userId });
        expect(off.error).toBeNull();
        expect((await profileOf(server, target.userId)).is_active).toBe(false);
        // Deactivated: nothing of the organisation is visible any more, only the own profile.
        const profiles = await target.client.from('user_profiles').select('id');
        expect(profiles.data).toEqual([{ id: target.userId }]);
        expect((await target.client.from('organizations').select('id')).data).toEqual([]);

        const on = await caller.client.rpc('reactivate_user', { user_id: target.userId });
        expect(on.error).toBeNull();
        expect((await profileOf(server, target.userId)).is_active).toBe(true);
        expect((await target.client.from('organizations').select('id')).data).toEqual([
          { id: org.id },
        ]);
      }
    });

    it('lets an admin deactivate another admin', async () => {
      const otherAdmin = await addMember(server, org, 'admin', 'other-admin');
      const result = await admin.client.rpc('deactivate_user', { user_id: otherAdmin.userId });
      expect(result.error).toBeNull();
      expect((await profileOf(server, otherAdmin.userId)).is_active).toBe(false);
    });

    it('refuses plain users, deactivated admins and people without an organisation', async () => {
      const inactiveAdmin = await addMember(server, org, 'admin', 'inactive-admin');
      await org.master.client.rpc('deactivate_user', { user_id: inactiveAdmin.userId });
      for (const caller of [user, inactiveAdmin]) {
        expect(
          errorMessage(await caller.client.rpc('deactivate_user', { user_id: target.userId })),
        ).toBe('Insufficient permissions to deactivate users');
        expect(
          errorMessage(await caller.client.rpc('reactivate_user', { user_id: target.userId })),
        ).toBe('Insufficient permissions to reactivate users');
      }
      expect(
        errorMessage(await loner.client.rpc('deactivate_user', { user_id: target.userId })),
      ).toBe('No organization found');
      expect(
        errorMessage(await loner.client.rpc('reactivate_user', { user_id: target.userId })),
      ).toBe('No organization found');
      expect((await profileOf(server, target.userId)).is_active).toBe(true);
    });

    it('never acts on the caller', async () => {
      expect(
        errorMessage(await admin.client.rpc('deactivate_user', { user_id: admin.userId })),
      ).toBe('You cannot deactivate yourself');
      expect(
        errorMessage(await admin.client.rpc('reactivate_user', { user_id: admin.userId })),
      ).toBe('You cannot reactivate yourself');
      expect((await profileOf(server, admin.userId)).is_active).toBe(true);
    });

    it('never acts on a master admin', async () => {
      expect(
        errorMessage(await admin.client.rpc('deactivate_user', { user_id: org.master.userId })),
      ).toBe('Master admins cannot be deactivated');
      expect(
        errorMessage(await admin.client.rpc('reactivate_user', { user_id: org.master.userId })),
      ).toBe('Master admins cannot be reactivated');
      expect((await profileOf(server, org.master.userId)).is_active).toBe(true);
    });

    it('finds no user outside the organisation', async () => {
      const outsider = await addDeactivatedMember(server, other, 'outsider');
      for (const user_id of [otherUser.userId, outsider.userId, randomUUID()]) {
        expect(errorMessage(await admin.client.rpc('deactivate_user', { user_id }))).toBe(
          'User not found',
        );
        expect(errorMessage(await admin.client.rpc('reactivate_user', { user_id }))).toBe(
          'User not found',
        );
      }
      expect((await profileOf(server, otherUser.userId)).is_active).toBe(true);
      expect((await profileOf(server, outsider.userId)).is_active).toBe(false);
    });

    it('is not available to the anonymous role', async () => {
      const anon = server.anon();
      expect((await anon.rpc('deactivate_user', { user_id: target.userId })).status).toBe(401);
      expect((await anon.rpc('reactivate_user', { user_id: target.userId })).status).toBe(401);
    });
  });
});
