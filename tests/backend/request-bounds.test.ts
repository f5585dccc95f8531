import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganisation, unwrap, type Organisation } from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { rest } from './rest-helpers.ts';

// Every REST request is bounded before it reaches the database (issue 11, finding F1): one
// signed-up member could make the server build gigabytes of nested JSON with one short URL.
// max_rows applies to the rows returned and to each embedded level; nesting depth and the
// length of the select list are limited; what exceeds a limit is a PostgREST-style 400.
describe('request bounds', () => {
  let server: TestServer;
  let org: Organisation;
  const MAX_ROWS = 25;
  // Room for a few rows' worth of embedded documents (one embed of 25 ids is about 1.3 KB).
  const MAX_EMBEDDED_BYTES = 8000;

  /** Inserts `count` documents as the organisation's master admin. */
  async function addDocuments(owner: Organisation, count: number): Promise<void> {
    const rows = Array.from({ length: count }, (_, i) => ({
      organization_id: owner.id,
      name: `Document ${i}.pdf`,
      category: 'Reports',
      size: 1,
      file_path: `documents/${owner.id}/${i}.pdf`,
      tags: [],
      status: 'Active',
    }));
    const { error } = await owner.master.client.from('documents').insert(rows);
    expect(error).toBeNull();
  }

  beforeAll(async () => {
    server = await startTestServer({
      env: { API_MAX_ROWS: String(MAX_ROWS), API_MAX_EMBEDDED_SIZE: String(MAX_EMBEDDED_BYTES) },
    });
    org = await createOrganisation(server, 'Bounded Church');
    await addDocuments(org, MAX_ROWS + 15);
  });
  afterAll(() => server?.close());

  it('refuses the nesting of finding F1 up front, and keeps serving', async () => {
    const { data, error, status } = await org.master.client
      .from('documents')
      .select('id,organizations(documents(id,organizations(documents(id))))');
    expect(data).toBeNull();
    expect(status).toBe(400);
    expect(error?.code).toBe('54000');
    expect(error?.message).toBe('Embedded resources are nested deeper than 3 levels');
    const { error: after } = await org.master.client.from('documents').select('id').limit(1);
    expect(after).toBeNull();
  });

  it('returns at most max_rows rows, as PostgREST db-max-rows, with the true total on request', async () => {
    const plain = await rest(server, '/documents?select=id', { token: await tokenOf(org) });
    expect(plain.status).toBe(200);
    expect(plain.json).toHaveLength(MAX_ROWS);
    expect(plain.headers.get('content-range')).toBe(`0-${MAX_ROWS - 1}/*`);

    const counted = await org.master.client
      .from('documents')
      .select('id', { count: 'exact' })
      .range(0, 100);
    expect(counted.data).toHaveLength(MAX_ROWS);
    expect(counted.count).toBe(MAX_ROWS + 15);
    expect(counted.status).toBe(206);

    const fewer = await org.master.client.from('documents').select('id').limit(3);
    expect(fewer.data).toHaveLength(3);
  });

  it('returns at most max_rows embedded rows under each parent row', async () => {
    const { data, error } = await org.master.client
      .from('organizations')
      .select('id, documents(id)')
      .eq('id', org.id)
      .single<{ id: string; documents: { id: string }[] }>();
    expect(error).toBeNull();
    expect(data!.documents).toHaveLength(MAX_ROWS);
  });

  it('refuses an answer whose embedded resources pass their bound, as a member under row-level security, and keeps serving', async () => {
    // 25 documents, each embedding its organisation with its 25 documents: 625 rows of JSON in
    // embeds. Under row-level security the planner computes that embed once and repeats it for
    // every row, so only the rows of the answer itself show what it holds.
    const { data, error, status } = await org.master.client
      .from('documents')
      .select('id, organizations(documents(id))');
    expect(data).toBeNull();
    expect(status).toBe(400);
    expect(error?.code).toBe('54000');
    expect(error?.message).toBe(
      `The embedded resources of this answer are larger than ${MAX_EMBEDDED_BYTES} bytes`,
    );
    expect(error?.hint).toMatch(/Filter or limit the embedded resources/);

    // Within the bound, the same shape answers.
    const small = await org.master.client
      .from('documents')
      .select('id, organizations(documents(id))')
      .limit(1)
      .single<{ organizations: { documents: unknown[] } }>();
    expect(small.error).toBeNull();
    expect(small.data!.organizations.documents).toHaveLength(MAX_ROWS);
  });

  it('refuses a select list longer than allowed with a 400, not a 500', async () => {
    // Past Postgres' own limit of 1,664 select-list entries, which answered 500 (54011).
    const columns = Array.from({ length: 1700 }, () => 'id').join(',');
    const { status, json } = await rest(server, `/documents?select=${columns}`, {
      token: await tokenOf(org),
    });
    expect(status).toBe(400);
    expect(json).toMatchObject({
      code: '54011',
      message: 'The select list has 1700 items, more than the 200 allowed',
    });
  });

  async function tokenOf(owner: Organisation): Promise<string> {
    const { data } = await owner.master.client.auth.getSession();
    return unwrap({ data: data.session?.access_token ?? null, error: null }, 'session');
  }
});
