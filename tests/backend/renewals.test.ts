import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDeactivatedMember,
  addMember,
  createOrganisation,
  errorMessage,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  newFilePath,
  uploadDocument,
  uploadFile,
  type StoredDocument,
} from './document-helpers.ts';

// Renewals (migration 20261127000501): the responsible member, the "renewal in progress"
// marker, and Renew, which gives a document a new file and expiry date in one step while its
// previous file stays as a version.

interface DocumentRow {
  id: string;
  file_path: string;
  size: number;
  expiry_date: string | null;
  upload_date: string;
  uploaded_by: string | null;
  responsible_id: string | null;
  renewal_in_progress: boolean;
  renewal_note: string | null;
  name: string;
}

interface VersionRow {
  document_id: string;
  version_number: number;
  change: string;
  file_path: string;
  size: number;
  name: string;
  expiry_date: string | null;
  uploaded_by: string | null;
  uploaded_at: string;
  replaced_by: string | null;
  replaced_at: string;
  properties: Record<string, unknown>;
}

describe('document renewals', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let member: Person;
  let colleague: Person;
  let deactivated: Person;

  const row = async (id: string) =>
    unwrap(
      await server.service().from('documents').select('*').eq('id', id).single(),
      'document',
    ) as DocumentRow;

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'Renewal Church');
    other = await createOrganisation(server, 'Elsewhere Church');
    member = await addMember(server, church, 'user', 'uploader');
    colleague = await addMember(server, church, 'user', 'colleague');
    deactivated = await addDeactivatedMember(server, church);
  });
  afterAll(() => server?.close());

  it('makes the uploader responsible, and lets members hand it to an active member only', async () => {
    const document = await uploadDocument(member, church, { name: 'Insurance.txt' });
    expect((await row(document.id)).responsible_id).toBe(member.userId);

    unwrap(
      await member.client
        .from('documents')
        .update({ responsible_id: colleague.userId })
        .eq('id', document.id),
      'hand over',
    );
    expect((await row(document.id)).responsible_id).toBe(colleague.userId);

    for (const someone of [deactivated.userId, other.master.userId]) {
      const refused = await member.client
        .from('documents')
        .update({ responsible_id: someone })
        .eq('id', document.id);
      expect(errorMessage(refused)).toBe(
        'The responsible member must be an active member of the organization',
      );
    }
    expect((await row(document.id)).responsible_id).toBe(colleague.userId);
  });

  it('keeps a note with the renewal marker and drops it with the marker', async () => {
    const document = await uploadDocument(member, church, { name: 'Licence.txt' });
    unwrap(
      await member.client
        .from('documents')
        .update({ renewal_in_progress: true, renewal_note: '  Form sent to the council  ' })
        .eq('id', document.id),
      'mark',
    );
    expect(await row(document.id)).toMatchObject({
      renewal_in_progress: true,
      renewal_note: 'Form sent to the council',
    });
    unwrap(
      await member.client
        .from('documents')
        .update({ renewal_in_progress: false })
        .eq('id', document.id),
      'unmark',
    );
    expect(await row(document.id)).toMatchObject({
      renewal_in_progress: false,
      renewal_note: null,
    });
  });

  it('refuses an expiry date far outside any calendar', async () => {
    const document = await uploadDocument(member, church, { name: 'Typo.txt' });
    const refused = await member.client
      .from('documents')
      .update({ expiry_date: '20260-01-01' })
      .eq('id', document.id);
    expect(refused.error).not.toBeNull();
    const ancient = await member.client
      .from('documents')
      .update({ expiry_date: '0026-01-01' })
      .eq('id', document.id);
    expect(errorMessage(ancient)).toMatch(/documents_expiry_date_range/);
    expect((await row(document.id)).expiry_date).toBeNull();
  });

  describe('Renew', () => {
    let certificate: StoredDocument;
    let before: DocumentRow;
    let newPath: string;

    beforeAll(async () => {
      certificate = await uploadDocument(member, church, {
        name: 'DBS certificate.txt',
        content: 'Checked in 2025',
        expiry_date: '2026-01-31',
      });
      unwrap(
        await member.client
          .from('documents')
          .update({ renewal_in_progress: true, renewal_note: 'Applied online' })
          .eq('id', certificate.id),
        'mark',
      );
      before = await row(certificate.id);
      newPath = await uploadFile(colleague, church, 'Checked again in 2026, longer');
    });

    it('replaces the file and the expiry date, clears the marker, and keeps the old file as a version', async () => {
      const renewed = unwrap(
        await colleague.client
          .rpc('renew_document', {
            document_id: certificate.id,
            file_path: newPath,
            expiry_date: '2029-01-31',
          })
          .single<DocumentRow>(),
        'renew',
      );
      expect(renewed).toMatchObject({
        id: certificate.id,
        file_path: newPath,
        size: 'Checked again in 2026, longer'.length,
        expiry_date: '2029-01-31',
        uploaded_by: colleague.userId,
        renewal_in_progress: false,
        renewal_note: null,
        name: 'DBS certificate.txt',
        responsible_id: member.userId,
      });
      expect(Date.parse(renewed.upload_date)).toBeGreaterThan(Date.parse(before.upload_date));

      const versions = unwrap(
        await member.client
          .from('document_versions')
          .select('*')
          .eq('document_id', certificate.id)
          .order('version_number'),
        'versions',
      ) as VersionRow[];
      expect(versions).toHaveLength(1);
      expect(versions[0]).toMatchObject({
        version_number: 1,
        change: 'renewal',
        file_path: before.file_path,
        size: 'Checked in 2025'.length,
        name: 'DBS certificate.txt',
        expiry_date: '2026-01-31',
        uploaded_by: member.userId,
        replaced_by: colleague.userId,
      });
      expect(Date.parse(versions[0]!.uploaded_at)).toBe(Date.parse(before.upload_date));
      expect(versions[0]!.properties).toMatchObject({
        category: 'Legal',
        expiry_date: '2026-01-31',
      });

      // The earlier file is still there, for members of the organisation only.
      const old = await member.client.storage.from('documents').download(before.file_path);
      expect(await old.data?.text()).toBe('Checked in 2025');
      const current = await member.client.storage.from('documents').download(newPath);
      expect(await current.data?.text()).toBe('Checked again in 2026, longer');
      const foreign = await other.master.client.storage
        .from('documents')
        .download(before.file_path);
      expect(foreign.data).toBeNull();
      expect(
        unwrap(
          await other.master.client.from('document_versions').select('id'),
          'foreign versions',
        ),
      ).toEqual([]);

      // Both files count towards the organisation's storage.
      const usage = unwrap(
        await church.master.client
          .rpc('organization_storage_usage')
          .single<{ used_bytes: number }>(),
        'usage',
      );
      const { rows } = await server.db.serverWork().query<{ bytes: string }>(
        `select sum((metadata ->> 'size')::bigint) as bytes from storage.objects
         where name in ($1, $2)`,
        [before.file_path, newPath],
      );
      expect(Number(usage.used_bytes)).toBeGreaterThanOrEqual(Number(rows[0]!.bytes));
    });

    it('numbers later renewals on', async () => {
      const third = await uploadFile(member, church, 'Checked in 2029');
      unwrap(
        await member.client.rpc('renew_document', {
          document_id: certificate.id,
          file_path: third,
          expiry_date: '2032-01-31',
        }),
        'renew again',
      );
      const versions = unwrap(
        await member.client
          .from('document_versions')
          .select('version_number, file_path, expiry_date')
          .eq('document_id', certificate.id)
          .order('version_number'),
        'versions',
      );
      expect(versions).toEqual([
        { version_number: 1, file_path: before.file_path, expiry_date: '2026-01-31' },
        { version_number: 2, file_path: newPath, expiry_date: '2029-01-31' },
      ]);
    });

    it('refuses what is not a renewal, and changes nothing then', async () => {
      const document = await uploadDocument(member, church, {
        name: 'Lease.txt',
        expiry_date: '2026-06-30',
      });
      const foreignDocument = await uploadDocument(other.master, other, { name: 'Theirs.txt' });
      const fresh = await uploadFile(member, church, 'New lease');
      const foreignFile = await uploadFile(other.master, other, 'Not yours');
      const attempt = (person: Person, args: Record<string, unknown>) =>
        person.client.rpc('renew_document', {
          document_id: document.id,
          file_path: fresh,
          expiry_date: '2027-06-30',
          ...args,
        });
      const unchanged = await row(document.id);

      expect(errorMessage(await attempt(member, { expiry_date: null }))).toBe(
        'Expiry date is required',
      );
      expect(errorMessage(await attempt(member, { expiry_date: '0020-01-01' }))).toBe(
        'Expiry date must be between 1900 and 9999',
      );
      expect(errorMessage(await attempt(member, { file_path: newFilePath(church) }))).toBe(
        'The new file has not been uploaded',
      );
      expect(errorMessage(await attempt(member, { file_path: foreignFile }))).toBe(
        "The new file must be uploaded to the organization's documents folder",
      );
      expect(errorMessage(await attempt(member, { file_path: document.file_path }))).toBe(
        'The new file must be a new upload',
      );
      expect(errorMessage(await attempt(member, { file_path: before.file_path }))).toBe(
        'The new file must be a new upload',
      );
      expect(errorMessage(await attempt(member, { document_id: foreignDocument.id }))).toBe(
        'Document not found',
      );
      expect(errorMessage(await attempt(deactivated, {}))).toBe('No organization found');
      expect(await row(document.id)).toEqual(unchanged);
      expect(
        unwrap(
          await server
            .service()
            .from('document_versions')
            .select('id')
            .eq('document_id', document.id),
          'versions',
        ),
      ).toEqual([]);
    });
  });
});
