import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  errorMessage,
  uniqueEmail,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { uploadDocument, uploadFile } from './document-helpers.ts';

// The history (migration 20261127000810): an append-only log the database writes itself, for
// documents, members, connections and settings; nobody can write, change or delete an entry
// through the API.

interface Entry {
  id: number;
  kind: string;
  actor_id: string | null;
  actor_name: string | null;
  document_id: string | null;
  subject: string | null;
  details: Record<string, unknown>;
}

describe('the history', () => {
  let server: TestServer;
  let church: Organisation;
  let user: Person;
  let admin: Person;

  /** The organisation's entries, oldest first, as the server sees them. */
  async function entries(organisation: Organisation, filter?: { document?: string }) {
    const { rows } = await server.db.serverWork().query<Entry>(
      `select id::int, kind, actor_id, actor_name, document_id, subject, details
         from public.activity_log
        where organization_id = $1 and ($2::uuid is null or document_id = $2::uuid)
        order by id`,
      [organisation.id, filter?.document ?? null],
    );
    return rows;
  }

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'History Church');
    user = await addMember(server, church, 'user', 'history-user');
    admin = await addMember(server, church, 'admin', 'history-admin');
  });
  afterAll(() => server?.close());

  it('records a document’s life: upload, each property change with old and new value, rename, renewal, trash, restore, purge', async () => {
    const document = await uploadDocument(user, church, { name: 'Lease.txt', category: 'Legal' });
    unwrap(
      await user.client
        .from('documents')
        .update({ category: 'Governance', tags: ['hall'], expiry_date: '2030-05-01' })
        .eq('id', document.id),
      'edit',
    );
    unwrap(
      await user.client.from('documents').update({ name: 'Hall lease.txt' }).eq('id', document.id),
      'rename',
    );
    unwrap(
      await user.client.rpc('renew_document', {
        document_id: document.id,
        file_path: await uploadFile(user, church, 'renewed lease'),
        expiry_date: '2031-05-01',
      }),
      'renew',
    );
    unwrap(await user.client.rpc('delete_documents', { document_ids: [document.id] }), 'delete');
    unwrap(await user.client.rpc('restore_documents', { document_ids: [document.id] }), 'restore');
    unwrap(await user.client.rpc('delete_documents', { document_ids: [document.id] }), 'delete');
    unwrap(await admin.client.rpc('purge_documents', { document_ids: [document.id] }), 'purge');

    const log = await entries(church, { document: document.id });
    expect(log.map((e) => e.kind)).toEqual([
      'document.uploaded',
      'document.updated',
      'document.renamed',
      'document.renewed',
      'document.deleted',
      'document.restored',
      'document.deleted',
      'document.purged',
    ]);
    expect(log[1]!.details).toEqual({
      changes: {
        category: { old: 'Legal', new: 'Governance' },
        tags: { old: [], new: ['hall'] },
        expiry_date: { old: null, new: '2030-05-01' },
      },
    });
    expect(log[2]!.details).toEqual({
      changes: { name: { old: 'Lease.txt', new: 'Hall lease.txt' } },
    });
    expect(log[3]!.details).toMatchObject({
      version_number: 1,
      changes: { expiry_date: { old: '2030-05-01', new: '2031-05-01' } },
    });
    expect(log.slice(0, 7).every((e) => e.actor_id === user.userId)).toBe(true);
    expect(log[0]!.actor_name).toBe('history-user of History Church');
    expect(log[7]!.actor_id).toBe(admin.userId);
    // The entries keep the document's name after it is gone.
    expect(log[7]!.subject).toBe('Hall lease.txt');
  });

  it('calls a change of the name alone a rename, and of the name with another property an update', async () => {
    const document = await uploadDocument(user, church, { name: 'Rota.txt', category: 'Legal' });
    unwrap(
      await user.client
        .from('documents')
        .update({ name: 'Sunday rota.txt', category: 'Legal' })
        .eq('id', document.id),
      'rename',
    );
    unwrap(
      await user.client
        .from('documents')
        .update({ name: 'Rota 2027.txt', tags: ['sunday'] })
        .eq('id', document.id),
      'rename and tag',
    );
    const log = await entries(church, { document: document.id });
    expect(log.map((e) => e.kind)).toEqual([
      'document.uploaded',
      'document.renamed',
      'document.updated',
    ]);
    expect(log[2]!.details).toEqual({
      changes: {
        name: { old: 'Sunday rota.txt', new: 'Rota 2027.txt' },
        tags: { old: [], new: ['sunday'] },
      },
    });
  });

  it('records every other property a person changes, long texts shortened, and nothing for an unchanged edit', async () => {
    const document = await uploadDocument(user, church, { name: 'Boiler.txt', category: 'Legal' });
    const long = 'Checked by the heating engineer. '.repeat(20);
    unwrap(
      await user.client
        .from('documents')
        .update({ description: long, renewal_in_progress: true, renewal_note: 'Quote asked' })
        .eq('id', document.id),
      'edit',
    );
    // The same values again: no entry.
    unwrap(
      await user.client
        .from('documents')
        .update({ description: long, renewal_note: 'Quote asked' })
        .eq('id', document.id),
      'same values',
    );
    unwrap(
      await user.client
        .from('documents')
        .update({ description: null, tags: ['boiler', 'hall'], renewal_in_progress: false })
        .eq('id', document.id),
      'clear',
    );

    const log = await entries(church, { document: document.id });
    expect(log.map((e) => e.kind)).toEqual([
      'document.uploaded',
      'document.updated',
      'document.updated',
    ]);
    expect(log[1]!.details).toEqual({
      changes: {
        description: { old: null, new: long.slice(0, 500) },
        renewal_in_progress: { old: false, new: true },
        renewal_note: { old: null, new: 'Quote asked' },
      },
    });
    // Ending the renewal clears its note (10_renewals.sql): both are in the entry.
    expect(log[2]!.details).toEqual({
      changes: {
        description: { old: long.slice(0, 500), new: null },
        tags: { old: [], new: ['boiler', 'hall'] },
        renewal_in_progress: { old: true, new: false },
        renewal_note: { old: 'Quote asked', new: null },
      },
    });
  });

  it('records invitations, role changes, deactivation by name, and lets members read document entries only', async () => {
    const email = uniqueEmail('history-invitee');
    const first = unwrap(
      await church.master.client.rpc('invite_user', { email, role: 'user', full_name: null }),
      'invite',
    ) as { id: string };
    unwrap(
      await church.master.client.rpc('invite_user', { email, role: 'admin', full_name: null }),
      'invite again',
    );
    unwrap(
      await church.master.client.rpc('cancel_invitation', { invitation_id: first.id }),
      'cancel',
    );
    unwrap(
      await church.master.client.rpc('update_user_role', {
        user_id: user.userId,
        new_role: 'admin',
      }),
      'promote',
    );
    unwrap(
      await church.master.client.rpc('update_user_role', {
        user_id: user.userId,
        new_role: 'user',
      }),
      'demote',
    );
    unwrap(await church.master.client.rpc('deactivate_user', { user_id: admin.userId }), 'off');
    unwrap(await church.master.client.rpc('reactivate_user', { user_id: admin.userId }), 'on');

    const members = (await entries(church)).filter((e) => e.kind.startsWith('member.'));
    expect(members.map((e) => [e.kind, e.subject])).toEqual(
      expect.arrayContaining([
        ['member.invited', email],
        ['member.reinvited', email],
        ['member.invitation_cancelled', email],
        ['member.role_changed', 'history-user of History Church'],
        ['member.deactivated', 'history-admin of History Church'],
        ['member.reactivated', 'history-admin of History Church'],
        ['member.invitation_accepted', user.email],
      ]),
    );
    const promotion = members.find((e) => e.kind === 'member.role_changed')!;
    expect(promotion.details).toMatchObject({
      changes: { role: { old: 'user', new: 'admin' } },
    });
    expect(promotion.actor_id).toBe(church.master.userId);

    // A member reads document entries only; an admin reads the member entries too.
    const asUser = unwrap(
      await user.client.from('activity_log').select('kind, document_id'),
      'user reads',
    ) as { kind: string; document_id: string | null }[];
    expect(asUser.length).toBeGreaterThan(0);
    expect(asUser.every((e) => e.document_id !== null)).toBe(true);
    const asAdmin = unwrap(
      await admin.client.from('activity_log').select('kind').like('kind', 'member.%'),
      'admin reads',
    ) as { kind: string }[];
    expect(asAdmin.length).toBe(members.length);
  });

  it('records a master admin removing a member’s second factor, naming the member, and only when there was one', async () => {
    const phoneLost = await addMember(server, church, 'user', 'history-phone');
    const enrolled = await phoneLost.client.auth.mfa.enroll({ factorType: 'totp' });
    if (enrolled.error) throw enrolled.error;
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolled.data.totp.secret) });
    const verified = await phoneLost.client.auth.mfa.challengeAndVerify({
      factorId: enrolled.data.id,
      code: totp.generate(),
    });
    if (verified.error) throw verified.error;
    const before = (await entries(church)).length;

    const removed = await church.master.client.rpc('remove_member_two_factor', {
      user_id: phoneLost.userId,
    });
    expect(removed.data).toBe(1);
    // Nothing left to remove: nothing happened, nothing recorded.
    const again = await church.master.client.rpc('remove_member_two_factor', {
      user_id: phoneLost.userId,
    });
    expect(again.data).toBe(0);

    const added = (await entries(church)).slice(before);
    expect(added).toEqual([
      expect.objectContaining({
        kind: 'member.two_factor_removed',
        actor_id: church.master.userId,
        subject: 'history-phone of History Church',
        details: { member_id: phoneLost.userId },
      }),
    ]);
    // Admins read it, as the Activity page does; members do not.
    const asAdmin = unwrap(
      await admin.client
        .from('activity_log')
        .select('kind, subject')
        .eq('kind', 'member.two_factor_removed'),
      'admin reads',
    );
    expect(asAdmin).toEqual([
      { kind: 'member.two_factor_removed', subject: 'history-phone of History Church' },
    ]);
    const asUser = unwrap(
      await user.client.from('activity_log').select('id').eq('kind', 'member.two_factor_removed'),
      'user reads',
    );
    expect(asUser).toEqual([]);
  });

  it('names the person after they are deactivated', async () => {
    const leaver = await addMember(server, church, 'user', 'history-leaver');
    const document = await uploadDocument(leaver, church, { name: 'Rota.txt' });
    unwrap(await church.master.client.rpc('deactivate_user', { user_id: leaver.userId }), 'off');
    const asUser = unwrap(
      await admin.client
        .from('activity_log')
        .select('actor_name, kind')
        .eq('document_id', document.id),
      'read',
    ) as { actor_name: string; kind: string }[];
    expect(asUser).toEqual([
      { actor_name: 'history-leaver of History Church', kind: 'document.uploaded' },
    ]);
  });

  it('records settings changes by area and field, never their values', async () => {
    unwrap(
      await church.master.client.rpc('save_oauth_config', {
        provider_id: 'github',
        client_id: 'client-1',
        client_secret: 'very-secret-value',
        authorize_url: null,
        token_url: null,
      }),
      'oauth config',
    );
    const settings = (await entries(church)).filter((e) => e.kind === 'settings.changed');
    expect(settings.map((e) => e.details.area)).toContain('oauth_configs');
    expect(JSON.stringify(settings)).not.toContain('very-secret-value');
  });

  it('lets nobody write, change or delete an entry through the API, the service role included', async () => {
    const [entry] = await entries(church);
    for (const client of [user.client, church.master.client, server.service()]) {
      const insert = await client.from('activity_log').insert({
        organization_id: church.id,
        kind: 'document.uploaded',
        subject: 'forged',
      });
      expect(errorMessage(insert)).not.toBeNull();
      await client.from('activity_log').update({ subject: 'forged' }).eq('id', entry!.id);
      await client.from('activity_log').delete().eq('id', entry!.id);
    }
    const [after] = await entries(church);
    expect(after).toEqual(entry);
    const { rows } = await server.db
      .serverWork()
      .query(`select 1 from public.activity_log where subject = 'forged'`);
    expect(rows).toEqual([]);
    // Not even the database owner changes an entry; it goes only with its organisation.
    await expect(
      server.db
        .serverWork()
        .query(`update public.activity_log set subject = 'forged' where id = $1`, [entry!.id]),
    ).rejects.toThrow(/The history cannot be changed/);
  });
  it('keeps a member’s entries, with their name, when their account is deleted', async () => {
    const leaver = await addMember(server, church, 'user', 'history-leaver');
    await server.db
      .serverWork()
      .query(`update public.user_profiles set full_name = 'Ruth Leaver' where id = $1`, [
        leaver.userId,
      ]);
    await uploadDocument(leaver, church, { name: 'Rota.txt', category: 'Other' });
    // While the member exists, the link cannot be taken away either.
    await expect(
      server.db
        .serverWork()
        .query(`update public.activity_log set actor_id = null where actor_id = $1`, [
          leaver.userId,
        ]),
    ).rejects.toThrow(/The history cannot be changed/);
    const { error } = await server.service().auth.admin.deleteUser(leaver.userId);
    expect(error).toBeNull();
    const theirs = (await entries(church)).filter((e) => e.actor_name === 'Ruth Leaver');
    expect(theirs.map((e) => e.kind)).toContain('document.uploaded');
    expect(theirs.every((e) => e.actor_id === null)).toBe(true);
  });
});
