import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganisation, errorMessage, unwrap, type Organisation } from '../security/world.ts';
import { uploadDocument } from '../support/documents.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Duplicates: the storage server records the SHA-256 of every file it writes, the document
// takes it (at upload and whenever the file is replaced), and find_duplicate_documents answers
// "does the organisation already have this file?" before an upload.
describe('duplicate documents', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;

  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const duplicates = async (organisation: Organisation, hash: string) =>
    (
      unwrap(
        await organisation.master.client.rpc('find_duplicate_documents', { sha256: hash }),
        'find_duplicate_documents',
      ) as { id: string; name: string }[]
    ).map((d) => d.name);
  const hashOf = async (id: string) =>
    (
      await server.db
        .serverWork()
        .query<{ content_sha256: string | null }>(
          'select content_sha256 from public.documents where id = $1',
          [id],
        )
    ).rows[0]!.content_sha256;

  beforeAll(async () => {
    server = await startTestServer({ env: { JOB_POLL_INTERVAL: '1h' } });
    church = await createOrganisation(server, 'Duplicate Church');
    other = await createOrganisation(server, 'Other Church');
  });
  afterAll(() => server?.close());

  it("records each file's SHA-256, computed by the storage server while it writes", async () => {
    const content = 'Standing order for the organ fund';
    const doc = await uploadDocument(church.master, church.id, {
      name: 'Standing order.txt',
      bytes: content,
      contentType: 'text/plain;charset=UTF-8',
    });
    expect(await hashOf(doc.id)).toBe(sha256(content));
    const info = await church.master.client.storage.from('documents').info(doc.filePath);
    expect(info.error).toBeNull();
  });

  it("finds the organisation's documents with the same bytes, newest first, and no one else's", async () => {
    const content = 'Minutes of the annual meeting, April';
    await uploadDocument(church.master, church.id, { name: 'Minutes.txt', bytes: content });
    await uploadDocument(church.master, church.id, { name: 'Minutes (copy).txt', bytes: content });
    await uploadDocument(church.master, church.id, { name: 'Other minutes.txt', bytes: 'April' });
    await uploadDocument(other.master, other.id, { name: 'Their minutes.txt', bytes: content });

    expect(await duplicates(church, sha256(content))).toEqual([
      'Minutes (copy).txt',
      'Minutes.txt',
    ]);
    // Either case of hex digits.
    expect(await duplicates(church, sha256(content).toUpperCase())).toHaveLength(2);
    expect(await duplicates(other, sha256(content))).toEqual(['Their minutes.txt']);
    expect(await duplicates(church, sha256('never uploaded'))).toEqual([]);
  });

  /** A new file for the document, uploaded and made current as the app's edit does. */
  async function replaceFile(id: string, content: string, metadata?: Record<string, string>) {
    const filePath = `documents/${church.id}/${Date.now()}-${randomBytes(4).toString('hex')}.txt`;
    unwrap(
      await church.master.client.storage
        .from('documents')
        .upload(filePath, Buffer.from(content), { contentType: 'text/plain', metadata }),
      'upload',
    );
    unwrap(
      await church.master.client.rpc('replace_document_file', {
        document_id: id,
        file_path: filePath,
        change: 'content_edit',
      }),
      'replace_document_file',
    );
  }

  it('follows the file when it is replaced', async () => {
    const doc = await uploadDocument(church.master, church.id, {
      name: 'Rota.txt',
      bytes: 'Rota for May',
    });
    await replaceFile(doc.id, 'Rota for June');
    expect(await hashOf(doc.id)).toBe(sha256('Rota for June'));
    expect(await duplicates(church, sha256('Rota for May'))).toEqual([]);
    expect(await duplicates(church, sha256('Rota for June'))).toEqual(['Rota.txt']);
  });

  it("prefers the storage server's own hash to one the uploader claims", async () => {
    const doc = await uploadDocument(church.master, church.id, {
      name: 'Claimed.txt',
      bytes: 'Real bytes',
    });
    // supabase-js sends `metadata` as the object's user metadata (what a hosted project keeps).
    await replaceFile(doc.id, 'Real bytes, again', { sha256: sha256('a lie') });
    expect(await hashOf(doc.id)).toBe(sha256('Real bytes, again'));
  });

  it('refuses something that is not a SHA-256', async () => {
    const result = await church.master.client.rpc('find_duplicate_documents', { sha256: 'abc' });
    expect(errorMessage(result)).toBe('A SHA-256 is 64 hexadecimal digits');
    expect(result.status).toBe(400);
  });
});
