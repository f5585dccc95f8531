import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// A document's recorded size follows its stored file: the size is taken from the stored file
// in the transaction that makes it the document's (migrations 20261126000001 and
// 20261128000301), so no crash between the browser's requests can leave new bytes with an old
// size. A document's file is replaced only through Steward's functions (a new upload made
// current), never overwritten where it is.
describe('document size follows the stored file', () => {
  let server: TestServer;
  let org: Organisation;
  let other: Organisation;
  let member: Person;

  const sizeOf = async (owner: Person, id: string) =>
    unwrap(
      await owner.client.from('documents').select('size').eq('id', id).single<{ size: number }>(),
      'read size',
    ).size;

  /** Uploads `content` and inserts its row with `size`, as the app's upload does. */
  async function addDocument(owner: Person, organizationId: string, content: string, size: number) {
    const filePath = `documents/${organizationId}/${Date.now()}-${Math.random().toString(36).slice(2)}.txt`;
    const upload = await owner.client.storage
      .from('documents')
      .upload(filePath, Buffer.from(content), { contentType: 'text/plain' });
    expect(upload.error).toBeNull();
    const row = unwrap(
      await owner.client
        .from('documents')
        .insert({
          organization_id: organizationId,
          name: 'Notes.txt',
          category: 'Reports',
          size,
          file_path: filePath,
          tags: [],
          status: 'Active',
        })
        .select('id')
        .single<{ id: string }>(),
      'insert document',
    );
    return { id: row.id, filePath };
  }

  beforeAll(async () => {
    server = await startTestServer();
    org = await createOrganisation(server, 'Size Church');
    other = await createOrganisation(server, 'Other Church');
    member = await addMember(server, org, 'user');
  });
  afterAll(() => server?.close());

  /** A new file for the document, as the app's edit saves it: a new upload made current. */
  async function replaceFile(owner: Person, organizationId: string, id: string, content: string) {
    const filePath = `documents/${organizationId}/${Date.now()}-${Math.random().toString(36).slice(2)}.txt`;
    const upload = await owner.client.storage
      .from('documents')
      .upload(filePath, Buffer.from(content), { contentType: 'text/plain' });
    expect(upload.error).toBeNull();
    return owner.client.rpc('replace_document_file', {
      document_id: id,
      file_path: filePath,
      change: 'content_edit',
    });
  }

  it('records the new size when a member replaces the file, with no second request', async () => {
    const doc = await addDocument(member, org.id, 'short', 5);
    unwrap(await replaceFile(member, org.id, doc.id, 'a good deal longer than before'), 'replace');
    expect(await sizeOf(member, doc.id)).toBe(30);
    // Seen by the whole organisation.
    expect(await sizeOf(org.master, doc.id)).toBe(30);
  });

  it('leaves every other document alone, and another organisation cannot touch it', async () => {
    const mine = await addDocument(member, org.id, 'mine', 4);
    const neighbour = await addDocument(member, org.id, 'neighbour', 9);
    const outsider = await other.master.client.storage
      .from('documents')
      .update(mine.filePath, Buffer.from('x'.repeat(99)), {
        contentType: 'text/plain',
        upsert: true,
      });
    expect(outsider.error).not.toBeNull();
    expect(
      (await replaceFile(other.master, other.id, mine.id, 'x'.repeat(99))).error,
    ).not.toBeNull();
    expect(await sizeOf(member, mine.id)).toBe(4);

    unwrap(await replaceFile(member, org.id, mine.id, '12345678'), 'replace');
    expect(await sizeOf(member, mine.id)).toBe(8);
    expect(await sizeOf(member, neighbour.id)).toBe(9);
  });

  it('copies the size and hash of a file written after the document that holds its name', async () => {
    // The server's own writes (an import's) may store the object after the document's row, or
    // change its metadata later: the document follows. (The triggers that copy them ask first
    // whether a document holds the name at all, as a new upload's file is held by none.)
    const db = server.db.serverWork();
    const filePath = `documents/${org.id}/later-${Date.now()}.txt`;
    const { id } = (
      await db.query<{ id: string }>(
        `insert into public.documents (organization_id, name, category, size, file_path, status)
         values ($1, 'Later.txt', 'Reports', 1, $2, 'Active') returning id`,
        [org.id, filePath],
      )
    ).rows[0]!;
    const recorded = async () =>
      (
        await db.query<{ size: string; content_sha256: string | null }>(
          `select size::text, content_sha256 from public.documents where id = $1`,
          [id],
        )
      ).rows[0];
    await db.query(
      `insert into storage.objects (bucket_id, name, metadata) values ('documents', $1, $2::jsonb)`,
      [filePath, JSON.stringify({ size: 1234, sha256: 'a'.repeat(64) })],
    );
    expect(await recorded()).toEqual({ size: '1234', content_sha256: 'a'.repeat(64) });
    await db.query(
      `update storage.objects set metadata = $2::jsonb where bucket_id = 'documents' and name = $1`,
      [filePath, JSON.stringify({ size: 99, sha256: 'b'.repeat(64) })],
    );
    expect(await recorded()).toEqual({ size: '99', content_sha256: 'b'.repeat(64) });
  });

  it('corrects a size recorded wrongly at upload on the next replacement of the file', async () => {
    const doc = await addDocument(member, org.id, 'exactly 17 bytes.', 1);
    expect(await sizeOf(member, doc.id)).toBe(1);
    unwrap(await replaceFile(member, org.id, doc.id, 'exactly 17 bytes.'), 'replace');
    expect(await sizeOf(member, doc.id)).toBe(17);
  });
});
