import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  errorMessage,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { newFilePath, uploadDocument, uploadFile } from './document-helpers.ts';

// Versions of every change of a document's file (migration 20261127000820): a content edit and
// a replacement keep the previous file as a version, as Renew does; restoring a version makes
// a copy of its file current and keeps the replaced file as a version in turn.

describe('document versions', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let member: Person;
  let outsider: Person;

  const text = async (person: Person, path: string) => {
    const { data, error } = await person.client.storage.from('documents').download(path);
    if (error) throw new Error(error.message);
    return data.text();
  };
  const current = async (id: string) =>
    unwrap(
      await server.service().from('documents').select('file_path, size').eq('id', id).single(),
      'document',
    ) as { file_path: string; size: number };
  const versions = async (id: string) =>
    unwrap(
      await member.client
        .from('document_versions')
        .select('id, version_number, change, file_path, size')
        .eq('document_id', id)
        .order('version_number'),
      'versions',
    ) as { id: string; version_number: number; change: string; file_path: string; size: number }[];

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'Versions Church');
    other = await createOrganisation(server, 'Other Church');
    member = await addMember(server, church, 'user', 'versions-member');
    outsider = await addMember(server, other, 'admin', 'versions-outsider');
  });
  afterAll(() => server?.close());

  it('keeps every edited content as a version, and restores the first as a new change', async () => {
    const document = await uploadDocument(member, church, {
      name: 'notes.txt',
      content: 'first draft',
    });
    for (const content of ['second draft', 'third draft']) {
      unwrap(
        await member.client.rpc('replace_document_file', {
          document_id: document.id,
          file_path: await uploadFile(member, church, content),
          change: 'content_edit',
        }),
        'edit',
      );
    }
    expect(await text(member, (await current(document.id)).file_path)).toBe('third draft');
    const kept = await versions(document.id);
    expect(kept.map((v) => [v.version_number, v.change, v.size])).toEqual([
      [1, 'content_edit', 11],
      [2, 'content_edit', 12],
    ]);
    expect(await text(member, kept[0]!.file_path)).toBe('first draft');

    // Restore version 1: a copy becomes current; the third draft is kept as version 3.
    const copy = newFilePath(church);
    unwrap(await member.client.storage.from('documents').copy(kept[0]!.file_path, copy), 'copy');
    unwrap(
      await member.client.rpc('restore_document_version', {
        version_id: kept[0]!.id,
        file_path: copy,
      }),
      'restore',
    );
    expect(await current(document.id)).toEqual({ file_path: copy, size: 11 });
    expect(await text(member, copy)).toBe('first draft');
    const after = await versions(document.id);
    expect(after.map((v) => v.change)).toEqual(['content_edit', 'content_edit', 'version_restore']);
    expect(await text(member, after[2]!.file_path)).toBe('third draft');

    const { rows } = await server.db
      .serverWork()
      .query<{ kind: string; details: Record<string, unknown> }>(
        `select kind, details from public.activity_log where document_id = $1 order by id`,
        [document.id],
      );
    expect(rows.map((r) => r.kind)).toEqual([
      'document.uploaded',
      'document.content_changed',
      'document.content_changed',
      'document.version_restored',
    ]);
    expect(rows[3]!.details).toMatchObject({ restored_version: 1, version_number: 3 });
  });

  it('keeps a replaced file as a version and counts versions against the quota', async () => {
    const document = await uploadDocument(member, church, { name: 'plan.txt', content: 'v1' });
    const usage = async () =>
      Number(
        (
          unwrap(await church.master.client.rpc('organization_storage_usage'), 'usage') as {
            used_bytes: number;
          }
        ).used_bytes,
      );
    const before = await usage();
    unwrap(
      await member.client.rpc('replace_document_file', {
        document_id: document.id,
        file_path: await uploadFile(member, church, 'version two'),
        change: 'file_replacement',
      }),
      'replace',
    );
    expect((await versions(document.id)).map((v) => v.change)).toEqual(['file_replacement']);
    expect(await usage()).toBe(before + 'version two'.length);
  });

  it('restores a version only from a file with its bytes, and the history claims no other restore', async () => {
    const document = await uploadDocument(member, church, { name: 'budget.txt', content: 'alpha' });
    unwrap(
      await member.client.rpc('replace_document_file', {
        document_id: document.id,
        file_path: await uploadFile(member, church, 'omega'),
        change: 'content_edit',
      }),
      'edit',
    );
    const [version] = await versions(document.id);
    // The version keeps the storage server's hash of its bytes.
    const recorded = await server.db
      .serverWork()
      .query<{ content_sha256: string }>(
        `select content_sha256 from public.document_versions where id = $1`,
        [version!.id],
      );
    expect(recorded.rows[0]!.content_sha256).toBe(
      createHash('sha256').update('alpha').digest('hex'),
    );
    const before = await current(document.id);
    const restoreFrom = async (content: string) =>
      member.client.rpc('restore_document_version', {
        version_id: version!.id,
        file_path: await uploadFile(member, church, content),
      });
    // Five bytes, as the version has, but not its bytes.
    expect(errorMessage(await restoreFrom('ALPHA'))).toBe(
      'The new file must be a copy of the version',
    );
    // A version made before versions kept a hash, of a file with none recorded (as on a hosted
    // project): the copy must have the ETag of the version's file.
    await server.db
      .serverWork()
      .query(`update public.document_versions set content_sha256 = null where id = $1`, [
        version!.id,
      ]);
    await server.db.serverWork().query(
      `update storage.objects set metadata = metadata - 'sha256'
       where bucket_id = 'documents' and name = $1`,
      [version!.file_path],
    );
    expect(errorMessage(await restoreFrom('alphA'))).toBe(
      'The new file must be a copy of the version',
    );
    expect(await current(document.id)).toEqual(before);
    expect(await versions(document.id)).toHaveLength(1);
    const { rows } = await server.db
      .serverWork()
      .query<{ kind: string }>(
        `select kind from public.activity_log where document_id = $1 order by id`,
        [document.id],
      );
    expect(rows.map((r) => r.kind)).toEqual(['document.uploaded', 'document.content_changed']);

    // A copy made with Storage's copy has the bytes, and restores.
    const copy = newFilePath(church);
    unwrap(await member.client.storage.from('documents').copy(version!.file_path, copy), 'copy');
    unwrap(
      await member.client.rpc('restore_document_version', {
        version_id: version!.id,
        file_path: copy,
      }),
      'restore',
    );
    expect(await text(member, (await current(document.id)).file_path)).toBe('alpha');
  });

  it('refuses what is not a new upload of the organisation, a trashed document, another organisation’s version', async () => {
    const document = await uploadDocument(member, church, { name: 'memo.txt' });
    const attempt = (file_path: string, change = 'content_edit') =>
      member.client.rpc('replace_document_file', { document_id: document.id, file_path, change });
    expect(errorMessage(await attempt(document.file_path))).toBe(
      'The new file must be a new upload',
    );
    expect(errorMessage(await attempt(`documents/${other.id}/x.txt`))).toBe(
      "The new file must be uploaded to the organization's documents folder",
    );
    expect(errorMessage(await attempt(newFilePath(church)))).toBe(
      'The new file has not been uploaded',
    );
    expect(errorMessage(await attempt(await uploadFile(member, church, 'x'), 'renewal'))).toBe(
      'The change must be content_edit or file_replacement',
    );
    expect(
      errorMessage(
        await outsider.client.rpc('replace_document_file', {
          document_id: document.id,
          file_path: await uploadFile(outsider, other, 'x'),
          change: 'content_edit',
        }),
      ),
    ).toBe('Document not found');

    unwrap(
      await member.client.rpc('replace_document_file', {
        document_id: document.id,
        file_path: await uploadFile(member, church, 'edited memo'),
      }),
      'edit',
    );
    const [version] = await versions(document.id);
    expect(
      errorMessage(
        await outsider.client.rpc('restore_document_version', {
          version_id: version!.id,
          file_path: await uploadFile(outsider, other, 'x'),
        }),
      ),
    ).toBe('Version not found');
    expect(
      errorMessage(
        await member.client.rpc('restore_document_version', {
          version_id: version!.id,
          file_path: await uploadFile(
            member,
            church,
            'a file of quite another size than the version',
          ),
        }),
      ),
    ).toBe('The new file must be a copy of the version');

    unwrap(await member.client.rpc('delete_documents', { document_ids: [document.id] }), 'trash');
    expect(errorMessage(await attempt(await uploadFile(member, church, 'late')))).toBe(
      'Document not found',
    );
  });
});
