import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// A document's recorded size follows its stored file: replacing the file is enough, in the
// same transaction (migration 20261126000001), so no crash between the browser's requests can
// leave new bytes with an old size.
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

  it('records the new size when a member replaces the file, with no second request', async () => {
    const doc = await addDocument(member, org.id, 'short', 5);
    const replaced = await member.client.storage
      .from('documents')
      .update(doc.filePath, Buffer.from('a good deal longer than before'), {
        contentType: 'text/plain',
        upsert: true,
      });
    expect(replaced.error).toBeNull();
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
    expect(await sizeOf(member, mine.id)).toBe(4);

    const replaced = await member.client.storage
      .from('documents')
      .update(mine.filePath, Buffer.from('12345678'), { contentType: 'text/plain', upsert: true });
    expect(replaced.error).toBeNull();
    expect(await sizeOf(member, mine.id)).toBe(8);
    expect(await sizeOf(member, neighbour.id)).toBe(9);
  });

  it('corrects a size recorded wrongly at upload on the next replacement of the file', async () => {
    const doc = await addDocument(member, org.id, 'exactly 17 bytes.', 1);
    expect(await sizeOf(member, doc.id)).toBe(1);
    const replaced = await member.client.storage
      .from('documents')
      .update(doc.filePath, Buffer.from('exactly 17 bytes.'), {
        contentType: 'text/plain',
        upsert: true,
      });
    expect(replaced.error).toBeNull();
    expect(await sizeOf(member, doc.id)).toBe(17);
  });
});
