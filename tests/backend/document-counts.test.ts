import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { uploadDocument } from './document-helpers.ts';

// The unfiltered total of search_documents comes from a counter the database keeps per
// organisation (migration 20261127001200). It must always equal what a count of the
// organisation's documents in use gives, whatever changed them and however many at once.
describe('the documents in use, counted', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let user: Person;
  let admin: Person;
  let outsider: Person;

  /** The total on the documents page's first page, without words or filters. */
  async function pageTotal(person: Person): Promise<number> {
    const rows = unwrap(
      await person.client.rpc('search_documents', { page_size: 1 }),
      'search_documents',
    ) as { total_count: number }[];
    return rows[0]?.total_count ?? 0;
  }

  /** The same, counted by Postgres under row-level security. */
  async function counted(person: Person): Promise<number> {
    const { count, error } = await person.client
      .from('documents')
      .select('id', { count: 'exact', head: true });
    if (error) throw new Error(error.message);
    return count ?? NaN;
  }

  /** The counter's rows of one organisation with documents in use, by category. */
  async function perCategory(organisation: Organisation): Promise<Record<string, number>> {
    const { rows } = await server.db
      .serverWork()
      .query<{ category: string; live: string }>(
        'select category, live from private.document_counts where organization_id = $1 and live > 0',
        [organisation.id],
      );
    return Object.fromEntries(rows.map((row) => [row.category, Number(row.live)]));
  }

  async function expectTotals(expected: { church: number; other: number }) {
    expect(await pageTotal(user)).toBe(expected.church);
    expect(await counted(user)).toBe(expected.church);
    expect(await pageTotal(outsider)).toBe(expected.other);
    expect(await counted(outsider)).toBe(expected.other);
  }

  const upload = (person: Person, organisation: Organisation, name: string) =>
    uploadDocument(person, organisation, { name });

  beforeAll(async () => {
    server = await startTestServer({ env: { JOB_POLL_INTERVAL: '1h' } });
    church = await createOrganisation(server, 'Counted Church');
    other = await createOrganisation(server, 'Other Counted Church');
    user = await addMember(server, church, 'user');
    admin = await addMember(server, church, 'admin');
    outsider = await addMember(server, other, 'user');
  });

  afterAll(() => server?.close());

  it('follows uploads, the trash, restores, purges and bulk changes, per organisation', async () => {
    await expectTotals({ church: 0, other: 0 });

    const documents = [];
    for (const name of ['Lease.txt', 'Insurance.txt', 'Minutes.txt', 'Budget.txt', 'Rota.txt']) {
      documents.push(await upload(user, church, name));
    }
    await upload(outsider, other, 'Elsewhere.txt');
    await expectTotals({ church: 5, other: 1 });

    // An edit that keeps the document in use changes nothing.
    unwrap(
      await user.client.from('documents').update({ category: 'Legal' }).eq('id', documents[0]!.id),
      'update',
    );
    await expectTotals({ church: 5, other: 1 });
    // A move to another category moves its count (the sum a member who may not view one of
    // them is shown); an edit that names the category it had moves nothing.
    unwrap(
      await user.client
        .from('documents')
        .update({ category: 'Governance', tags: ['board'] })
        .eq('id', documents[1]!.id),
      'move',
    );
    unwrap(
      await user.client
        .from('documents')
        .update({ category: 'Legal', description: 'Signed' })
        .eq('id', documents[2]!.id),
      'same category',
    );
    expect(await perCategory(church)).toEqual({ Legal: 4, Governance: 1 });
    await expectTotals({ church: 5, other: 1 });

    const [first, second, third] = documents.map((document) => document.id);
    unwrap(
      await user.client.rpc('delete_documents', { document_ids: [first, second, third] }),
      'delete',
    );
    await expectTotals({ church: 2, other: 1 });
    expect(await perCategory(church)).toEqual({ Legal: 2 });

    unwrap(await user.client.rpc('restore_documents', { document_ids: [first] }), 'restore');
    await expectTotals({ church: 3, other: 1 });

    // Deleting for ever what is already in the trash leaves the documents in use as they were.
    unwrap(await admin.client.rpc('purge_documents', { document_ids: [second] }), 'purge');
    unwrap(await admin.client.rpc('empty_trash'), 'empty trash');
    await expectTotals({ church: 3, other: 1 });

    // A row removed outright (the server's own work, e.g. an organisation's import undone).
    await server.db.serverWork().query('delete from public.documents where id = $1', [first]);
    await expectTotals({ church: 2, other: 1 });

    // Many rows in one statement, in two organisations at once.
    await server.db
      .serverWork()
      .query(`update public.documents set deleted_at = now() where organization_id = any ($1)`, [
        [church.id, other.id],
      ]);
    await expectTotals({ church: 0, other: 0 });
    expect(await perCategory(church)).toEqual({});
    await server.db
      .serverWork()
      .query(`update public.documents set deleted_at = null where organization_id = any ($1)`, [
        [church.id, other.id],
      ]);
    await expectTotals({ church: 2, other: 1 });

    // Many rows added and removed in one statement each (an import, and its undoing), in two
    // organisations and two categories at once, some of them added straight to the trash: each
    // organisation's and category's count moves by its own rows in use.
    await server.db.serverWork().query(
      `insert into public.documents (organization_id, name, category, file_path, deleted_at)
       select d.organization_id, d.name || ' (copy ' || n || ')', c.category,
              d.file_path || '-copy-' || n || '-' || c.category,
              case when n = 2 and c.category = 'Governance' then now() end
         from public.documents d
        cross join generate_series(1, 2) n
        cross join (values ('Legal'), ('Governance')) c (category)
        where d.organization_id = any ($1) and d.deleted_at is null`,
      [[church.id, other.id]],
    );
    await expectTotals({ church: 8, other: 4 });
    expect(await perCategory(church)).toEqual({ Legal: 6, Governance: 2 });
    expect(await perCategory(other)).toEqual({ Legal: 3, Governance: 1 });
    await server.db
      .serverWork()
      .query(
        `delete from public.documents where organization_id = any ($1) and name like '%(copy %'`,
        [[church.id, other.id]],
      );
    await expectTotals({ church: 2, other: 1 });
    expect(await perCategory(church)).toEqual({ Legal: 2 });
  });

  it('keeps each organisation to its own total', async () => {
    const before = await pageTotal(outsider);
    await upload(user, church, 'Only ours.txt');
    expect(await pageTotal(outsider)).toBe(before);
    expect(await pageTotal(user)).toBe(await counted(user));
  });

  it('drops the counter with its organisation', async () => {
    const gone = await createOrganisation(server, 'Short-lived Church');
    const member = await addMember(server, gone, 'user');
    await upload(member, gone, 'Soon gone.txt');
    expect(await pageTotal(member)).toBe(1);
    await server.db.serverWork().query('delete from public.organizations where id = $1', [gone.id]);
    const { rows } = await server.db
      .serverWork()
      .query('select 1 from private.document_counts where organization_id = $1', [gone.id]);
    expect(rows).toEqual([]);
  });
});
