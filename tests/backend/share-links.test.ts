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
import { uploadDocument, type StoredDocument } from './document-helpers.ts';

// Share links (issue 25, item 3; supabase/schemas/21_share_links.sql, server/sharing/): made by
// members through `POST /share/v1/links`, opened without an account, with an optional password,
// revocable, ending with the document's trash, its maker's deactivation and its expiry; each
// opening and download in the document's history.

interface MadeLink {
  id: string;
  token: string;
  expires_at: string;
}

interface OpenedLink {
  password_required: boolean;
  name?: string;
  size?: number;
  expires_at?: string;
  access?: string;
}

async function accessToken(person: Person): Promise<string> {
  const { data } = await person.client.auth.getSession();
  if (!data.session) throw new Error(`${person.email} has no session`);
  return data.session.access_token;
}

describe('share links', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let member: Person;
  let colleague: Person;
  let admin: Person;
  let document: StoredDocument;

  const api = (path: string) => `${server.url}/share/v1${path}`;

  async function make(
    person: Person | null,
    body: Record<string, unknown>,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      apikey: server.keys.anonKey,
    };
    if (person) headers.authorization = `Bearer ${await accessToken(person)}`;
    const response = await fetch(api('/links'), {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  async function makeLink(person: Person, body: Record<string, unknown>): Promise<MadeLink> {
    const { status, json } = await make(person, body);
    if (status !== 201) throw new Error(`link not made: ${status} ${JSON.stringify(json)}`);
    return json as unknown as MadeLink;
  }

  async function open(token: string): Promise<{ status: number; json: OpenedLink }> {
    const response = await fetch(api(`/s/${token}`));
    return { status: response.status, json: (await response.json()) as OpenedLink };
  }

  async function unlock(token: string, password: string) {
    const response = await fetch(api(`/s/${token}/unlock`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  const history = async (documentId: string) =>
    unwrap(
      await server
        .service()
        .from('activity_log')
        .select('kind, actor_id, actor_name, details')
        .eq('document_id', documentId)
        .order('id'),
      'history',
    ) as {
      kind: string;
      actor_id: string | null;
      actor_name: string | null;
      details: Record<string, unknown>;
    }[];

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'Share Church');
    other = await createOrganisation(server, 'Elsewhere Church');
    member = await addMember(server, church, 'user', 'sharer');
    colleague = await addMember(server, church, 'user', 'colleague');
    admin = await addMember(server, church, 'admin', 'admin');
    document = await uploadDocument(member, church, {
      name: 'Insurance certificate.txt',
      content: 'Certificate of public liability insurance',
    });
  });
  afterAll(() => server?.close());

  it('opens for anyone with its address: the name, the file, and each opening in the history', async () => {
    const before = Date.now();
    const link = await makeLink(member, { document_id: document.id, label: 'Riverside Hall' });
    expect(link.token).toMatch(/^[0-9a-f]{64}$/);
    // Seven days unless the maker chooses.
    const lasts = Date.parse(link.expires_at) - before;
    expect(lasts).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(lasts).toBeLessThan(7 * 86_400_000 + 60_000);

    const opened = await open(link.token);
    expect(opened.status).toBe(200);
    expect(opened.json).toMatchObject({
      password_required: false,
      name: 'Insurance certificate.txt',
      size: 41,
    });
    // Nothing else of the organisation.
    expect(Object.keys(opened.json).sort()).toEqual([
      'access',
      'expires_at',
      'name',
      'password_required',
      'size',
    ]);

    const preview = await fetch(
      api(`/s/${link.token}/file?access=${encodeURIComponent(opened.json.access!)}`),
    );
    expect(preview.status).toBe(200);
    expect(await preview.text()).toBe('Certificate of public liability insurance');
    const download = await fetch(
      api(`/s/${link.token}/file?access=${encodeURIComponent(opened.json.access!)}&download`),
    );
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('Insurance certificate.txt');
    await download.arrayBuffer();

    // Without the page's grant, or with another link's, no file.
    expect((await fetch(api(`/s/${link.token}/file`))).status).toBe(401);
    const second = await makeLink(member, { document_id: document.id });
    const secondAccess = (await open(second.token)).json.access!;
    expect(
      (await fetch(api(`/s/${link.token}/file?access=${encodeURIComponent(secondAccess)}`))).status,
    ).toBe(401);

    const entries = (await history(document.id)).filter(
      (entry) => entry.details.link_id === link.id,
    );
    expect(entries.map((entry) => entry.kind)).toEqual([
      'document.link_created',
      'document.link_opened',
      'document.link_downloaded',
    ]);
    expect(entries[1]).toMatchObject({ actor_id: null, actor_name: 'Someone with a share link' });

    const listed = unwrap(
      await member.client.rpc('list_share_links', { document_id: document.id }),
      'list',
    ) as { id: string; label: string | null; opened_count: number }[];
    expect(listed.find((row) => row.id === link.id)).toMatchObject({
      label: 'Riverside Hall',
      opened_count: 1,
    });
  });

  it('asks for its password before showing anything, and slows down guessing', async () => {
    const link = await makeLink(member, {
      document_id: document.id,
      password: 'safeguarding 2026',
    });
    expect(await open(link.token)).toEqual({ status: 200, json: { password_required: true } });
    const wrong = await unlock(link.token, 'safeguarding 2025');
    expect(wrong.status).toBe(401);
    expect(wrong.json.message).toBe('Wrong password');
    const right = await unlock(link.token, 'safeguarding 2026');
    expect(right.status).toBe(200);
    expect(right.json).toMatchObject({ name: 'Insurance certificate.txt' });

    // The password is kept only as a bcrypt hash, out of every API role's reach.
    const stored = await server.db
      .serverWork()
      .query<{ password_hash: string }>(
        'select password_hash from private.share_link_secrets where share_link_id = $1',
        [link.id],
      );
    expect(stored.rows[0]!.password_hash).toMatch(/^\$2[aby]\$/);

    // Past five wrong guesses from one address, the next must wait.
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await unlock(link.token, `guess ${i}`)).status);
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses).toContain(429);
  });

  it('refuses a short password, a link longer than the installation allows, and strangers', async () => {
    expect((await make(member, { document_id: document.id, password: 'abc' })).json.message).toBe(
      'The password must be at least 6 characters long',
    );
    const tooLong = await make(member, {
      document_id: document.id,
      expires_at: new Date(Date.now() + 31 * 86_400_000).toISOString(),
    });
    expect(tooLong).toMatchObject({
      status: 400,
      json: { message: 'A share link can last at most 30 days' },
    });
    const past = await make(member, {
      document_id: document.id,
      expires_at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.json.message).toBe('The link must expire in the future');

    expect((await make(null, { document_id: document.id })).status).toBe(401);
    const outsider = await make(other.master, { document_id: document.id });
    expect(outsider).toMatchObject({ status: 400, json: { message: 'Document not found' } });
  });

  it('dies when revoked: by its maker or an admin, not by another member or organisation', async () => {
    const link = await makeLink(member, { document_id: document.id });
    expect(
      errorMessage(await colleague.client.rpc('revoke_share_link', { link_id: link.id })),
    ).toBe('Share link not found');
    expect(
      errorMessage(await other.master.client.rpc('revoke_share_link', { link_id: link.id })),
    ).toBe('Share link not found');
    expect((await open(link.token)).status).toBe(200);
    // Another member's list does not show it; an admin's does.
    const colleagues = unwrap(
      await colleague.client.rpc('list_share_links', { document_id: null }),
      'list',
    ) as { id: string }[];
    expect(colleagues.map((row) => row.id)).not.toContain(link.id);
    const admins = unwrap(
      await admin.client.rpc('list_share_links', { document_id: null }),
      'list',
    ) as { id: string }[];
    expect(admins.map((row) => row.id)).toContain(link.id);

    unwrap(await admin.client.rpc('revoke_share_link', { link_id: link.id }), 'revoke');
    const gone = await open(link.token);
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({
      error: 'link_not_found',
      message: 'This link does not work. It may have expired or been revoked.',
    });
    const own = await makeLink(member, { document_id: document.id });
    unwrap(await member.client.rpc('revoke_share_link', { link_id: own.id }), 'revoke own');
    expect((await open(own.token)).status).toBe(404);
  });

  it('dies after its expiry', async () => {
    const link = await makeLink(member, { document_id: document.id });
    const access = (await open(link.token)).json.access!;
    // As if made a week ago and expired a minute ago.
    await server.db.serverWork().query(
      `update public.share_links set created_at = now() - interval '7 days',
              expires_at = now() - interval '1 minute' where id = $1`,
      [link.id],
    );
    expect((await open(link.token)).status).toBe(404);
    expect(
      (await fetch(api(`/s/${link.token}/file?access=${encodeURIComponent(access)}`))).status,
    ).toBe(404);
  });

  it('dies for good when the document goes to the trash', async () => {
    const trashed = await uploadDocument(member, church, { name: 'Old policy.txt' });
    const link = await makeLink(member, { document_id: trashed.id });
    unwrap(await member.client.rpc('delete_documents', { document_ids: [trashed.id] }), 'trash');
    expect((await open(link.token)).status).toBe(404);
    unwrap(await member.client.rpc('restore_documents', { document_ids: [trashed.id] }), 'restore');
    expect((await open(link.token)).status).toBe(404);
  });

  it('dies for good when its maker is deactivated, and a deactivated member makes none', async () => {
    const leaver = await addMember(server, church, 'user', 'leaver');
    const link = await makeLink(leaver, { document_id: document.id });
    expect((await open(link.token)).status).toBe(200);
    unwrap(await church.master.client.rpc('deactivate_user', { user_id: leaver.userId }), 'off');
    expect((await open(link.token)).status).toBe(404);
    expect((await make(leaver, { document_id: document.id })).json.message).toBe(
      'No organization found',
    );
    unwrap(await church.master.client.rpc('reactivate_user', { user_id: leaver.userId }), 'on');
    expect((await open(link.token)).status).toBe(404);
  });

  it('answers an unknown or malformed token as a dead link, and keeps links out of the REST API', async () => {
    expect((await open('0'.repeat(64))).status).toBe(404);
    expect((await open('not-a-token')).status).toBe(404);
    const direct = await member.client.from('share_links').select('id');
    expect(direct.error?.code).toBe('42501');
  });
});

describe('share links: bounds', () => {
  let server: TestServer;
  let church: Organisation;

  beforeAll(async () => {
    server = await startTestServer({
      env: { SHARE_LINKS_PER_HOUR: '2', SHARE_LINK_OPENINGS_PER_MINUTE: '3' },
    });
    church = await createOrganisation(server, 'Busy Church');
  });
  afterAll(() => server?.close());

  it('bounds the links an organisation makes an hour, and the openings of one address', async () => {
    const document = await uploadDocument(church.master, church, { name: 'Rota.txt' });
    const { data } = await church.master.client.auth.getSession();
    const made: { status: number; json: Record<string, unknown> }[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${server.url}/share/v1/links`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          apikey: server.keys.anonKey,
          authorization: `Bearer ${data.session!.access_token}`,
        },
        body: JSON.stringify({ document_id: document.id }),
      });
      made.push({ status: response.status, json: (await response.json()) as never });
    }
    expect(made.map((m) => m.status)).toEqual([201, 201, 429]);
    expect(made[2]!.json.message).toBe(
      'Your organization may make at most 2 share links an hour. Please try again later.',
    );

    const token = made[0]!.json.token as string;
    const openings: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${server.url}/share/v1/s/${token}`);
      openings.push(response.status);
      if (response.status === 429)
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      await response.arrayBuffer();
    }
    expect(openings).toEqual([200, 200, 200, 429]);
  });
});

// Issue 23 and 25 together: a link is made, and keeps working, only while its maker may view the
// document by its category's access (private.member_may_view_document).
describe('share links of a restricted category', () => {
  let server: TestServer;
  let church: Organisation;
  let staff: Person;
  let volunteer: Person;
  let admin: Person;
  let staffGroup: string;
  let payroll: StoredDocument;

  const make = async (person: Person, documentId: string) => {
    const response = await fetch(`${server.url}/share/v1/links`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        apikey: server.keys.anonKey,
        authorization: `Bearer ${await accessToken(person)}`,
      },
      body: JSON.stringify({ document_id: documentId }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const opens = async (token: string) => (await fetch(`${server.url}/share/v1/s/${token}`)).status;
  const setStaff = async (userIds: string[]) =>
    unwrap(
      await church.master.client.rpc('set_member_group_members', {
        group_id: staffGroup,
        user_ids: userIds,
      }),
      'Staff members',
    );

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'Restricted Share Church');
    staff = await addMember(server, church, 'user', 'staff');
    volunteer = await addMember(server, church, 'user', 'volunteer');
    admin = await addMember(server, church, 'admin', 'admin');
    payroll = await uploadDocument(church.master, church, {
      name: 'Payroll 2027.txt',
      content: 'Salaries for the year',
      category: 'HR',
    });
    staffGroup = unwrap(
      await church.master.client.rpc('create_member_group', { name: 'Staff' }),
      'create_member_group',
    ) as string;
    await setStaff([staff.userId]);
    const categories = unwrap(
      await church.master.client.rpc('my_document_categories'),
      'my_document_categories',
    ) as { id: string; name: string }[];
    unwrap(
      await church.master.client.rpc('set_category_access', {
        category_id: categories.find((c) => c.name === 'HR')!.id,
        restricted: true,
        rules: [{ group_id: staffGroup, access: 'view' }],
      }),
      'set_category_access',
    );
  }, 180_000);
  afterAll(() => server?.close());

  it('is made only by a member who may view the document, admins included', async () => {
    for (const outsider of [volunteer, admin]) {
      expect(await make(outsider, payroll.id)).toMatchObject({
        status: 400,
        json: { message: 'Document not found' },
      });
    }
    expect((await make(staff, payroll.id)).status).toBe(201);
    const links = unwrap(
      await admin.client.rpc('list_share_links', { document_id: null }),
      'list_share_links',
    ) as unknown[];
    expect(links).toEqual([]);
  });

  it('dies when its maker loses access to the category', async () => {
    const made = await make(staff, payroll.id);
    expect(made.status).toBe(201);
    const token = made.json.token as string;
    expect(await opens(token)).toBe(200);
    await setStaff([]);
    expect(await opens(token)).toBe(404);
    expect(
      unwrap(await staff.client.rpc('list_share_links', { document_id: null }), 'list'),
    ).toEqual([]);
    // For good: given the access back, the maker's old link stays dead.
    await setStaff([staff.userId]);
    expect(await opens(token)).toBe(404);
  });

  it('dies for good when its document moves into a category its maker may not view', async () => {
    const rota = await uploadDocument(staff, church, {
      name: 'Rota.txt',
      content: 'Sundays',
      category: 'Other',
    });
    const made = await make(staff, rota.id);
    const token = made.json.token as string;
    expect(await opens(token)).toBe(200);
    // Staff sees HR: moving it there keeps the link.
    unwrap(
      await church.master.client.from('documents').update({ category: 'HR' }).eq('id', rota.id),
      'into HR',
    );
    expect(await opens(token)).toBe(200);
    unwrap(
      await church.master.client.rpc('create_document_category', { name: 'Pastoral' }),
      'Pastoral',
    );
    const pastoral = (
      unwrap(
        await church.master.client.rpc('my_document_categories'),
        'my_document_categories',
      ) as { id: string; name: string }[]
    ).find((c) => c.name === 'Pastoral')!;
    unwrap(
      await church.master.client.rpc('set_category_access', {
        category_id: pastoral.id,
        restricted: true,
        rules: [],
      }),
      'restrict Pastoral',
    );
    unwrap(
      await church.master.client
        .from('documents')
        .update({ category: 'Pastoral' })
        .eq('id', rota.id),
      'into Pastoral',
    );
    expect(await opens(token)).toBe(404);
    unwrap(
      await church.master.client.from('documents').update({ category: 'HR' }).eq('id', rota.id),
      'back to HR',
    );
    expect(await opens(token)).toBe(404);
  });
});
