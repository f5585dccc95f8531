import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/jobs/clock.ts';
import {
  addMember,
  createOrganisation,
  errorMessage,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { uploadDocument, uploadFile } from './document-helpers.ts';
import { storedVersionExists } from './storage-helpers.ts';

// The trash (migration 20261127000800): Delete moves documents to the organisation's trash with
// their files; members restore; admins delete for ever or empty the trash; the scheduler
// deletes what has been there longer than the retention. Trashed documents stay out of every
// list, counter, search, reminder and feed, and their files keep counting towards the quota.

const DAY = 86_400_000;

interface TrashRow {
  id: string;
  name: string;
  deleted_at: string;
  deleted_by: string | null;
  deleted_by_name: string | null;
  purge_at: string;
}

describe('the trash', () => {
  let server: TestServer;
  let clock: ManualClock;
  let church: Organisation;
  let other: Organisation;
  let user: Person;
  let admin: Person;
  let outsider: Person;

  const exists = (version: string) => storedVersionExists(server, version);

  /** The version of the stored object `name` (its bytes), and whether its storage row is there. */
  async function storedFile(name: string): Promise<{ row: boolean; file: string | null }> {
    const { rows } = await server.db
      .serverWork()
      .query<{ version: string }>(
        `select version from storage.objects where bucket_id = 'documents' and name = $1`,
        [name],
      );
    const version = rows[0]?.version;
    if (!version) return { row: false, file: null };
    return { row: true, file: version };
  }

  const trashOf = async (person: Person) =>
    unwrap(await person.client.rpc('list_trash'), 'list_trash') as TrashRow[];

  const listed = async (person: Person) =>
    unwrap(await person.client.from('documents').select('id, name'), 'documents') as {
      id: string;
      name: string;
    }[];

  beforeAll(async () => {
    clock = new ManualClock(new Date());
    server = await startTestServer({ clock, env: { JOB_POLL_INTERVAL: '1h' } });
    await server.jobs.runDue();
    church = await createOrganisation(server, 'Trash Church');
    other = await createOrganisation(server, 'Other Church');
    user = await addMember(server, church, 'user', 'trash-user');
    admin = await addMember(server, church, 'admin', 'trash-admin');
    outsider = await addMember(server, other, 'admin', 'trash-outsider');
  });
  afterAll(() => server?.close());

  it('moves a deleted document to the trash with its file, out of every list and counter', async () => {
    const document = await uploadDocument(user, church, {
      name: 'Lease zqtrash.txt',
      expiry_date: new Date(Date.now() + 5 * DAY).toISOString().slice(0, 10),
    });
    const before = unwrap(await user.client.rpc('document_stats'), 'stats') as { total: number };

    expect(
      unwrap(await user.client.rpc('delete_documents', { document_ids: [document.id] }), 'delete'),
    ).toBe(1);

    expect((await listed(user)).map((d) => d.id)).not.toContain(document.id);
    const after = unwrap(await user.client.rpc('document_stats'), 'stats') as { total: number };
    expect(after.total).toBe(before.total - 1);
    const search = unwrap(
      await user.client.rpc('search_documents', { search: 'zqtrash' }),
      'search',
    ) as { id: string }[];
    expect(search.map((d) => d.id)).not.toContain(document.id);
    expect(
      unwrap(await user.client.rpc('count_documents_matching', { term: 'Legal' }), 'count'),
    ).toBe(0);

    const trash = await trashOf(user);
    expect(trash).toHaveLength(1);
    expect(trash[0]).toMatchObject({
      id: document.id,
      name: 'Lease zqtrash.txt',
      deleted_by: user.userId,
    });
    expect(trash[0]!.deleted_by_name).toBeTruthy();
    expect(Date.parse(trash[0]!.purge_at) - Date.parse(trash[0]!.deleted_at)).toBe(30 * DAY);
    // The file stays, and still counts towards the organisation's storage.
    const file = await storedFile(document.file_path);
    expect(file.row).toBe(true);
    expect(await exists(file.file!)).toBe(true);
    const usage = unwrap(await admin.client.rpc('organization_storage_usage'), 'usage') as {
      used_bytes: number;
    };
    expect(Number(usage.used_bytes)).toBeGreaterThan(0);

    // A trashed document cannot be edited, renewed or e-mailed, nor deleted again.
    const edit = await user.client
      .from('documents')
      .update({ name: 'edited.txt' })
      .eq('id', document.id)
      .select('id');
    expect(edit.data).toEqual([]);
    const renewal = await user.client.rpc('renew_document', {
      document_id: document.id,
      file_path: await uploadFile(user, church, 'new'),
      expiry_date: '2030-01-01',
    });
    expect(errorMessage(renewal)).toBe('Document not found');
    expect(
      errorMessage(await user.client.rpc('delete_documents', { document_ids: [document.id] })),
    ).toBe('Some of the selected documents were not found');

    // Restore: back in the list, out of the trash, with its file.
    expect(
      unwrap(
        await user.client.rpc('restore_documents', { document_ids: [document.id] }),
        'restore',
      ),
    ).toBe(1);
    expect((await listed(user)).map((d) => d.id)).toContain(document.id);
    expect(await trashOf(user)).toEqual([]);
    const { data: blob } = await user.client.storage.from('documents').download(document.file_path);
    expect(await blob?.text()).toBe('The contents of Lease zqtrash.txt');
  });

  it('keeps both when a restored document’s name was taken meanwhile', async () => {
    const first = await uploadDocument(user, church, { name: 'Minutes.txt' });
    unwrap(await user.client.rpc('delete_documents', { document_ids: [first.id] }), 'delete');
    await uploadDocument(user, church, { name: 'Minutes.txt' });
    const second = await uploadDocument(user, church, { name: 'Minutes.txt' });
    unwrap(await user.client.rpc('delete_documents', { document_ids: [second.id] }), 'delete');

    unwrap(
      await user.client.rpc('restore_documents', { document_ids: [first.id, second.id] }),
      'restore',
    );
    const names = (await listed(user))
      .filter((d) => d.name.startsWith('Minutes'))
      .map((d) => d.name)
      .sort();
    expect(names).toEqual(['Minutes (restored 2).txt', 'Minutes (restored).txt', 'Minutes.txt']);
  });

  it('lets only admins delete for ever, with the file and its versions', async () => {
    const document = await uploadDocument(user, church, { name: 'Contract.txt' });
    const oldPath = document.file_path;
    unwrap(
      await user.client.rpc('renew_document', {
        document_id: document.id,
        file_path: await uploadFile(user, church, 'renewed contract'),
        expiry_date: '2030-01-01',
      }),
      'renew',
    );
    const current = unwrap(
      await server.service().from('documents').select('file_path').eq('id', document.id).single(),
      'current',
    ) as { file_path: string };
    const files = [await storedFile(oldPath), await storedFile(current.file_path)];
    unwrap(await user.client.rpc('delete_documents', { document_ids: [document.id] }), 'delete');

    expect(
      errorMessage(await user.client.rpc('purge_documents', { document_ids: [document.id] })),
    ).toBe('Only admins can delete documents for ever');
    expect(errorMessage(await user.client.rpc('empty_trash'))).toBe(
      'Only admins can delete documents for ever',
    );
    expect(
      errorMessage(await outsider.client.rpc('purge_documents', { document_ids: [document.id] })),
    ).toBe('Some of the selected documents were not found in the trash');
    // Nobody deletes a row through the API any more, not even an admin.
    await admin.client.from('documents').delete().eq('id', document.id);
    expect((await trashOf(admin)).map((d) => d.id)).toContain(document.id);

    expect(
      unwrap(await admin.client.rpc('purge_documents', { document_ids: [document.id] }), 'purge'),
    ).toBe(1);
    expect((await trashOf(admin)).map((d) => d.id)).not.toContain(document.id);
    const { rows } = await server.db
      .serverWork()
      .query(`select 1 from public.document_versions where document_id = $1`, [document.id]);
    expect(rows).toEqual([]);
    expect((await storedFile(oldPath)).row).toBe(false);
    expect((await storedFile(current.file_path)).row).toBe(false);
    // The removal job was queued at the database's time; the test clock stood still since.
    clock.advance(60_000);
    await server.jobs.runDue();
    for (const file of files) expect(await exists(file.file!)).toBe(false);
  });

  it('empties the trash of the admin’s organisation only', async () => {
    const mine = await uploadDocument(user, church, { name: 'Old rota.txt' });
    const theirs = await uploadDocument(outsider, other, { name: 'Their rota.txt' });
    unwrap(await user.client.rpc('delete_documents', { document_ids: [mine.id] }), 'delete');
    unwrap(await outsider.client.rpc('delete_documents', { document_ids: [theirs.id] }), 'delete');

    expect(unwrap(await admin.client.rpc('empty_trash'), 'empty')).toBeGreaterThanOrEqual(1);
    expect(await trashOf(admin)).toEqual([]);
    expect((await trashOf(outsider)).map((d) => d.id)).toEqual([theirs.id]);
    expect(
      errorMessage(await outsider.client.rpc('restore_documents', { document_ids: [mine.id] })),
    ).toBe('Some of the selected documents were not found in the trash');
  });

  it('deletes for ever what has been in the trash longer than the retention, by the scheduler', async () => {
    const old = await uploadDocument(user, church, { name: 'Expired.txt' });
    const file = await storedFile(old.file_path);
    unwrap(await user.client.rpc('delete_documents', { document_ids: [old.id] }), 'delete');

    clock.advance(29 * DAY);
    await server.jobs.runDue();
    expect((await trashOf(user)).map((d) => d.id)).toEqual([old.id]);
    expect(await exists(file.file!)).toBe(true);

    clock.advance(2 * DAY);
    await server.jobs.runDue();
    expect(await trashOf(user)).toEqual([]);
    expect((await storedFile(old.file_path)).row).toBe(false);
    expect(await exists(file.file!)).toBe(false);
  });
});
