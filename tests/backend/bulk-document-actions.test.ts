import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addDeactivatedMember,
  addMember,
  createOrganisation,
  errorMessage,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { uploadDocument } from '../support/documents.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Actions on many selected documents: one rpc each, one transaction, every document changes or
// none does, decided by the documents' own row-level security.
describe('bulk document actions', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let member: Person;
  let deactivated: Person;
  let mine: string[];
  let theirs: string;

  interface Doc {
    id: string;
    category: string;
    tags: string[];
    expiry_date: string | null;
  }
  const read = async (ids: string[]) =>
    (
      unwrap(
        await server
          .service()
          .from('documents')
          .select('id, category, tags, expiry_date')
          .in('id', ids),
        'read',
      ) as Doc[]
    ).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));

  beforeAll(async () => {
    server = await startTestServer({ env: { JOB_POLL_INTERVAL: '1h' } });
    church = await createOrganisation(server, 'Bulk Church');
    other = await createOrganisation(server, 'Other Church');
    member = await addMember(server, church, 'user');
    deactivated = await addDeactivatedMember(server, church);
    theirs = (await uploadDocument(other.master, other.id, { name: 'Theirs.txt', bytes: 'x' })).id;
  });
  beforeEach(async () => {
    mine = [];
    for (const name of ['One.txt', 'Two.txt', 'Three.txt']) {
      mine.push(
        (
          await uploadDocument(member, church.id, {
            name,
            bytes: name,
            category: 'Other',
            tags: ['Rota', 'keep'],
          })
        ).id,
      );
    }
  });
  afterAll(() => server?.close());

  it('sets the category of every selected document', async () => {
    const result = await member.client.rpc('set_documents_category', {
      document_ids: mine.slice(0, 2),
      new_category: 'Governance',
    });
    expect(result.data).toBe(2);
    expect((await read(mine)).map((d) => d.category)).toEqual([
      'Governance',
      'Governance',
      'Other',
    ]);
    const bad = await member.client.rpc('set_documents_category', {
      document_ids: mine,
      new_category: 'Nonsense',
    });
    expect(errorMessage(bad)).toBe('Choose one of the categories');
    expect((await read(mine)).map((d) => d.category)).toEqual([
      'Governance',
      'Governance',
      'Other',
    ]);
  });

  it('adds and removes tags, each tag once and case-insensitively', async () => {
    expect(
      (
        await member.client.rpc('add_documents_tags', {
          document_ids: mine,
          tags_to_add: [' Harvest ', 'rota', 'harvest', ''],
        })
      ).data,
    ).toBe(3);
    expect((await read(mine)).map((d) => d.tags)).toEqual([
      ['Rota', 'keep', 'Harvest'],
      ['Rota', 'keep', 'Harvest'],
      ['Rota', 'keep', 'Harvest'],
    ]);
    expect(
      (
        await member.client.rpc('remove_documents_tags', {
          document_ids: mine.slice(1),
          tags_to_remove: ['ROTA', 'absent'],
        })
      ).data,
    ).toBe(2);
    expect((await read(mine)).map((d) => d.tags)).toEqual([
      ['Rota', 'keep', 'Harvest'],
      ['keep', 'Harvest'],
      ['keep', 'Harvest'],
    ]);
    const empty = await member.client.rpc('add_documents_tags', {
      document_ids: mine,
      tags_to_add: ['  '],
    });
    expect(errorMessage(empty)).toBe('Enter at least one tag');
    const tooMany = await member.client.rpc('add_documents_tags', {
      document_ids: mine,
      tags_to_add: Array.from({ length: 99 }, (_, i) => `tag ${i}`),
    });
    expect(errorMessage(tooMany)).toBe('A document can have at most 100 tags');
    expect((await read(mine))[0]!.tags).toEqual(['Rota', 'keep', 'Harvest']);
  });

  it('sets and clears the expiry date', async () => {
    await member.client.rpc('set_documents_expiry', {
      document_ids: mine,
      new_expiry_date: '2027-06-30',
    });
    expect((await read(mine)).map((d) => d.expiry_date)).toEqual([
      '2027-06-30',
      '2027-06-30',
      '2027-06-30',
    ]);
    await member.client.rpc('set_documents_expiry', {
      document_ids: [mine[0]],
      new_expiry_date: null,
    });
    expect((await read(mine)).map((d) => d.expiry_date)).toEqual([
      null,
      '2027-06-30',
      '2027-06-30',
    ]);
  });

  it('moves the documents to the trash and says how many', async () => {
    expect(
      unwrap(
        await member.client.rpc('delete_documents', { document_ids: mine.slice(0, 2) }),
        'delete',
      ),
    ).toBe(2);
    const { rows } = await server.db
      .serverWork()
      .query<{ id: string; trashed: boolean }>(
        `select id, deleted_at is not null as trashed from public.documents where id = any($1::uuid[])`,
        [mine],
      );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.trashed]))).toEqual({
      [mine[0]!]: true,
      [mine[1]!]: true,
      [mine[2]!]: false,
    });
    const visible = unwrap(
      await member.client.from('documents').select('id').in('id', mine),
      'visible',
    ) as { id: string }[];
    expect(visible.map((d) => d.id)).toEqual([mine[2]]);
  });

  it("changes nothing when one selected document is another organisation's", async () => {
    for (const [fn, args] of [
      ['set_documents_category', { new_category: 'HR' }],
      ['set_documents_expiry', { new_expiry_date: '2030-01-01' }],
      ['add_documents_tags', { tags_to_add: ['x'] }],
      ['remove_documents_tags', { tags_to_remove: ['keep'] }],
      ['delete_documents', {}],
    ] as const) {
      const result = await member.client.rpc(fn, { document_ids: [...mine, theirs], ...args });
      expect({ fn, message: errorMessage(result) }).toEqual({
        fn,
        message: 'Some of the selected documents were not found',
      });
    }
    expect(await read(mine)).toEqual(
      mine.map((id) => ({ id, category: 'Other', tags: ['Rota', 'keep'], expiry_date: null })),
    );
    expect(await read([theirs])).toHaveLength(1);
  });

  it('lets a deactivated member change nothing, and refuses an empty or huge selection', async () => {
    const result = await deactivated.client.rpc('delete_documents', { document_ids: mine });
    expect(errorMessage(result)).toBe('Some of the selected documents were not found');
    expect(await read(mine)).toHaveLength(3);
    expect(errorMessage(await member.client.rpc('delete_documents', { document_ids: [] }))).toBe(
      'Select between 1 and 1000 documents',
    );
    const many = Array.from({ length: 1001 }, () => crypto.randomUUID());
    expect(errorMessage(await member.client.rpc('delete_documents', { document_ids: many }))).toBe(
      'Select between 1 and 1000 documents',
    );
  });
});
