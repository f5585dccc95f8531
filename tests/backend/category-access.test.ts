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
import { uploadDocument } from '../support/documents.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { unzip } from '../support/zip-files.ts';

// Issue 23: the organisation's own categories, groups, access per category and the Viewer
// role, enforced by the database (supabase/schemas/021_document_categories.sql). A church
// restricts HR to the group "Staff" (view) and "Finance team" (edit); a volunteer neither sees
// nor finds the payroll file, Staff previews it and the history shows who looked.

interface Category {
  id: string;
  name: string;
  position: number;
  retired: boolean;
  restricted: boolean;
  can_view: boolean;
  can_edit: boolean;
}

interface SearchRow {
  id: string;
  name: string;
  total_count: number;
}

const SPECIFICATION_CATEGORIES = [
  'HR',
  'Accounting',
  'Branding',
  'Social Media',
  'Communications',
  'Volunteer/People Management',
  'Streaming: Video & Podcast',
  'Reports',
  'Governance',
  'Legal',
  'Funding',
  'Financial',
  'Operations',
  'Other',
];

describe('categories, groups and access per category', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let volunteer: Person;
  let staff: Person;
  let finance: Person;
  let admin: Person;
  let viewer: Person;
  let leaver: Person;
  let staffGroup: string;
  let financeGroup: string;
  let hr: Category;
  let payroll: { id: string; filePath: string };
  let rota: { id: string; filePath: string };
  // A word found only inside the payroll file's text.
  const innerWord = 'zebrafinch';

  const categories = async (who: Person) =>
    unwrap(await who.client.rpc('my_document_categories'), 'my_document_categories') as Category[];
  const search = async (who: Person, args: Record<string, unknown> = {}) =>
    unwrap(await who.client.rpc('search_documents', args), 'search_documents') as SearchRow[];
  const visibleIds = async (who: Person) =>
    (unwrap(await who.client.from('documents').select('id'), 'documents') as { id: string }[]).map(
      (row) => row.id,
    );
  const historyKinds = async (who: Person, documentId: string) =>
    (
      unwrap(
        await who.client
          .from('activity_log')
          .select('kind, actor_id')
          .eq('document_id', documentId)
          .order('id'),
        'activity_log',
      ) as { kind: string; actor_id: string | null }[]
    ).map((row) => `${row.kind}:${row.actor_id}`);
  const restrictHr = (rules: unknown[]) =>
    church.master.client.rpc('set_category_access', {
      category_id: hr.id,
      restricted: true,
      rules,
    });

  beforeAll(async () => {
    // Jobs run when a test says (`server.jobs.runDue()`): a background poll could send a message
    // before a test has changed who may view its documents.
    server = await startTestServer({ env: { JOB_POLL_INTERVAL: '1h' } });
    church = await createOrganisation(server, 'Access Church');
    other = await createOrganisation(server, 'Other Church');
    volunteer = await addMember(server, church, 'user', 'volunteer');
    staff = await addMember(server, church, 'user', 'staff');
    finance = await addMember(server, church, 'user', 'finance');
    admin = await addMember(server, church, 'admin', 'admin');
    viewer = await addMember(server, church, 'viewer', 'viewer');
    leaver = await addMember(server, church, 'user', 'leaver');

    payroll = await uploadDocument(finance, church.id, {
      name: 'Payroll 2027.txt',
      bytes: `Salaries for the year. Code word ${innerWord}.`,
      contentType: 'text/plain;charset=UTF-8',
      category: 'HR',
    });
    rota = await uploadDocument(volunteer, church.id, {
      name: 'Volunteer rota.txt',
      bytes: 'Sunday rota',
      contentType: 'text/plain;charset=UTF-8',
      category: 'Operations',
    });
    await server.jobs.runDue();

    staffGroup = unwrap(
      await church.master.client.rpc('create_member_group', { name: 'Staff' }),
      'create_member_group',
    ) as string;
    financeGroup = unwrap(
      await church.master.client.rpc('create_member_group', { name: 'Finance team' }),
      'create_member_group',
    ) as string;
    unwrap(
      await church.master.client.rpc('set_member_group_members', {
        group_id: staffGroup,
        user_ids: [staff.userId],
      }),
      'Staff members',
    );
    unwrap(
      await church.master.client.rpc('set_member_group_members', {
        group_id: financeGroup,
        user_ids: [finance.userId, leaver.userId],
      }),
      'Finance members',
    );
    hr = (await categories(church.master)).find((c) => c.name === 'HR')!;
    unwrap(
      await restrictHr([
        { group_id: staffGroup, access: 'view' },
        { group_id: financeGroup, access: 'edit' },
      ]),
      'set_category_access',
    );
    unwrap(
      await church.master.client.rpc('deactivate_user', { user_id: leaver.userId }),
      'deactivate',
    );
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  describe('categories', () => {
    it("start as the specification's 14, in its order, open to every member", async () => {
      const list = await categories(other.master);
      expect(list.map((c) => c.name)).toEqual(SPECIFICATION_CATEGORIES);
      expect(list.every((c) => c.can_view && c.can_edit && !c.restricted && !c.retired)).toBe(true);
    });

    it('are added, renamed, reordered and retired by admins only', async () => {
      const refused = await volunteer.client.rpc('create_document_category', { name: 'Music' });
      expect(errorMessage(refused)).toBe('Only admins can manage categories and groups');

      const music = unwrap(
        await admin.client.rpc('create_document_category', { name: '  Music  ' }),
        'create',
      ) as string;
      expect(
        errorMessage(await admin.client.rpc('create_document_category', { name: 'Music' })),
      ).toBe('A category with this name already exists');
      expect(errorMessage(await admin.client.rpc('create_document_category', { name: ' ' }))).toBe(
        'Category name is required',
      );

      const anthem = await uploadDocument(volunteer, church.id, {
        name: 'Anthem.txt',
        bytes: 'la la',
        contentType: 'text/plain;charset=UTF-8',
        category: 'Music',
      });
      // A department page fed by the category, and a request filing into it, name it as text.
      const worship = unwrap(
        await admin.client
          .from('departments')
          .insert({ organization_id: church.id, name: 'Worship team', categories: ['Music'] })
          .select('id')
          .single(),
        'department',
      ) as { id: string };
      const [requestLink] = unwrap(
        await admin.client.rpc('create_document_request', {
          title: 'Song licence',
          instructions: null,
          category: 'Music',
          tags: [],
          expiry_required: false,
          due_date: null,
          ask_for_renewal: false,
          recipients: [{ name: 'Pat' }],
        }),
        'request',
      ) as { request_id: string }[];
      unwrap(
        await admin.client.rpc('rename_document_category', {
          category_id: music,
          new_name: 'Music ministry',
        }),
        'rename',
      );
      const department = unwrap(
        await admin.client.from('departments').select('categories').eq('id', worship.id).single(),
        'department after',
      ) as { categories: string[] };
      expect(department.categories).toEqual(['Music ministry']);
      const request = unwrap(
        await admin.client
          .from('document_requests')
          .select('category')
          .eq('id', requestLink!.request_id)
          .single(),
        'request after',
      ) as { category: string };
      expect(request.category).toBe('Music ministry');
      const { data: renamed } = await volunteer.client
        .from('documents')
        .select('category')
        .eq('id', anthem.id)
        .single<{ category: string }>();
      expect(renamed?.category).toBe('Music ministry');
      // The rename says nothing in each document's history.
      expect(await historyKinds(church.master, anthem.id)).toEqual([
        `document.uploaded:${volunteer.userId}`,
      ]);

      const ids = (await categories(admin)).map((c) => c.id);
      unwrap(
        await admin.client.rpc('reorder_document_categories', {
          category_ids: [...ids].reverse(),
        }),
        'reorder',
      );
      expect((await categories(volunteer))[0]!.name).toBe('Music ministry');
      expect(
        errorMessage(
          await admin.client.rpc('reorder_document_categories', { category_ids: ids.slice(1) }),
        ),
      ).toBe('The new order must name every category once');

      unwrap(await admin.client.rpc('retire_document_category', { category_id: music }), 'retire');
      expect((await categories(volunteer)).find((c) => c.id === music)?.retired).toBe(true);
      const upload = await volunteer.client.from('documents').insert({
        organization_id: church.id,
        name: 'Hymn.txt',
        category: 'Music ministry',
        file_path: `documents/${church.id}/hymn.txt`,
      });
      expect(errorMessage(upload)).toBe('This category is retired');
      // Nor may a document move into it: the update's check runs when the category changes.
      const move = await volunteer.client
        .from('documents')
        .update({ category: 'Music ministry' })
        .eq('id', rota.id)
        .select('id');
      expect(errorMessage(move)).toBe('This category is retired');
      // Its documents keep it, and are edited as before.
      const edit = await volunteer.client
        .from('documents')
        .update({ description: 'Sung at Easter', category: 'Music ministry' })
        .eq('id', anthem.id)
        .select('id');
      expect(edit.error).toBeNull();
      expect(edit.data).toHaveLength(1);
      unwrap(
        await admin.client.rpc('unretire_document_category', { category_id: music }),
        'unretire',
      );
    });

    it('are the only categories a document may have', async () => {
      const result = await volunteer.client.rpc('set_documents_category', {
        document_ids: [rota.id],
        new_category: 'Nonexistent',
      });
      expect(errorMessage(result)).toBe('Choose one of the categories');
    });
  });

  describe('a restricted category', () => {
    it('tells each member what they may do', async () => {
      const of = async (who: Person) => {
        const found = (await categories(who)).find((c) => c.name === 'HR')!;
        return [found.restricted, found.can_view, found.can_edit];
      };
      expect(await of(volunteer)).toEqual([true, false, false]);
      expect(await of(admin)).toEqual([true, false, false]);
      expect(await of(staff)).toEqual([true, true, false]);
      expect(await of(finance)).toEqual([true, true, true]);
      expect(await of(church.master)).toEqual([true, true, true]);
      expect(await of(viewer)).toEqual([true, false, false]);
    });

    it('is not there for members outside its rules: rows, search, counters, files', async () => {
      for (const who of [volunteer, admin, viewer]) {
        const visible = await visibleIds(who);
        expect(visible).not.toContain(payroll.id);
        expect(await search(who, { search: innerWord })).toEqual([]);
        expect(await search(who, { search: 'Payroll' })).toEqual([]);
        const page = await search(who);
        expect(page.map((row) => row.id)).not.toContain(payroll.id);
        expect(page.map((row) => row.id).sort()).toEqual([...visible].sort());
        expect(page[0]!.total_count).toBe(visible.length);
        const stats = unwrap(await who.client.rpc('document_stats'), 'stats') as {
          total: number;
        };
        expect(stats.total).toBe(visible.length);
        expect(
          unwrap(await who.client.rpc('count_documents_matching', { term: 'hr' }), 'count'),
        ).toBe(0);
        const download = await who.client.storage.from('documents').download(payroll.filePath);
        expect(download.data).toBeNull();
        const link = await who.client.storage
          .from('documents')
          .createSignedUrl(payroll.filePath, 60);
        expect(link.data).toBeNull();
        const texts = unwrap(
          await who.client
            .from('document_texts')
            .select('document_id')
            .eq('document_id', payroll.id),
          'texts',
        );
        expect(texts).toEqual([]);
        expect(await historyKinds(who, payroll.id)).toEqual([]);
      }
      // Those in its rules see it.
      for (const who of [staff, finance, church.master]) {
        expect(await visibleIds(who)).toContain(payroll.id);
        expect((await search(who, { search: innerWord })).map((row) => row.id)).toEqual([
          payroll.id,
        ]);
        expect((await search(who))[0]!.total_count).toBe((await visibleIds(who)).length);
      }
    });

    it('is nothing to a deactivated member of its edit group', async () => {
      const { data, error } = await leaver.client.from('documents').select('id');
      expect(error).toBeNull();
      expect(data).toEqual([]);
    });

    it('takes uploads and moves only from those who may edit it', async () => {
      const move = await volunteer.client
        .from('documents')
        .update({ category: 'HR' })
        .eq('id', rota.id)
        .select('id');
      expect(errorMessage(move)).toBe('You do not have access to this category');
      const staffMove = await staff.client.rpc('set_documents_category', {
        document_ids: [payroll.id],
        new_category: 'Other',
      });
      expect(errorMessage(staffMove)).toBe('Some of the selected documents were not found');
      const staffUpload = await staff.client.from('documents').insert({
        organization_id: church.id,
        name: 'Contract.txt',
        category: 'HR',
        file_path: `documents/${church.id}/contract.txt`,
      });
      expect(errorMessage(staffUpload)).toBe('You do not have access to this category');
      const staffDelete = await staff.client.rpc('delete_documents', {
        document_ids: [payroll.id],
      });
      expect(errorMessage(staffDelete)).toBe('Some of the selected documents were not found');

      // Finance moves a document into HR: from then on only HR's people see it.
      const contract = await uploadDocument(finance, church.id, {
        name: 'Contract draft.txt',
        bytes: 'Terms',
        contentType: 'text/plain;charset=UTF-8',
        category: 'Other',
      });
      expect(await visibleIds(volunteer)).toContain(contract.id);
      unwrap(
        await finance.client.rpc('set_documents_category', {
          document_ids: [contract.id],
          new_category: 'HR',
        }),
        'move into HR',
      );
      expect(await visibleIds(volunteer)).not.toContain(contract.id);
      expect(await visibleIds(staff)).toContain(contract.id);
      // Its trash is HR's too.
      unwrap(
        await finance.client.rpc('delete_documents', { document_ids: [contract.id] }),
        'delete',
      );
      const trashOf = async (who: Person) =>
        (unwrap(await who.client.rpc('list_trash'), 'list_trash') as { id: string }[]).map(
          (row) => row.id,
        );
      expect(await trashOf(finance)).toContain(contract.id);
      expect(await trashOf(volunteer)).not.toContain(contract.id);
      expect(await trashOf(admin)).not.toContain(contract.id);
      const restore = await volunteer.client.rpc('restore_documents', {
        document_ids: [contract.id],
      });
      expect(errorMessage(restore)).toBe(
        'Some of the selected documents were not found in the trash',
      );
    });

    it('records who previewed or downloaded its documents, for those who may edit them', async () => {
      const link = await staff.client.storage
        .from('documents')
        .createSignedUrl(payroll.filePath, 60);
      expect(link.error).toBeNull();
      const fetched = await fetch(link.data!.signedUrl);
      expect(fetched.status).toBe(200);
      await fetched.arrayBuffer();
      const download = await finance.client.storage.from('documents').download(payroll.filePath);
      expect(download.error).toBeNull();

      const seenByFinance = await historyKinds(finance, payroll.id);
      expect(seenByFinance).toContain(`document.viewed:${staff.userId}`);
      expect(seenByFinance).toContain(`document.downloaded:${finance.userId}`);
      // One preview, however many times its link is fetched within a minute.
      expect(seenByFinance.filter((k) => k === `document.viewed:${staff.userId}`)).toHaveLength(1);
      // Staff may view, not edit: the history of who looked is not theirs to read.
      const seenByStaff = await historyKinds(staff, payroll.id);
      expect(seenByStaff.some((k) => k.startsWith('document.viewed'))).toBe(false);
      expect(seenByStaff).toContain(`document.uploaded:${finance.userId}`);

      // Files of open categories are not recorded.
      const rotaDownload = await volunteer.client.storage.from('documents').download(rota.filePath);
      expect(rotaDownload.error).toBeNull();
      expect(
        (await historyKinds(church.master, rota.id)).some((k) => k.startsWith('document.down')),
      ).toBe(false);
    });

    it('records each look once, in the read of the file, and none by those who may not read it', async () => {
      const ledger = await uploadDocument(finance, church.id, {
        name: 'Ledger.txt',
        bytes: 'Gift aid ledger',
        contentType: 'text/plain;charset=UTF-8',
        category: 'HR',
      });
      // Every entry about the ledger's looks, read with the server's own connection.
      const looks = async () =>
        (
          await server.db.serverWork().query<{ kind: string; actor_id: string }>(
            `select kind, actor_id::text from public.activity_log
              where document_id = $1 and kind in ('document.viewed', 'document.downloaded')
              order by id`,
            [ledger.id],
          )
        ).rows.map((row) => `${row.kind}:${row.actor_id}`);
      const documents = (who: Person) => who.client.storage.from('documents');

      // Those who may not read the file: refused on every path, and nothing recorded.
      for (const who of [volunteer, leaver, other.master]) {
        expect((await documents(who).download(ledger.filePath)).error).not.toBeNull();
        expect((await documents(who).createSignedUrl(ledger.filePath, 60)).error).not.toBeNull();
        const many = await documents(who).createSignedUrls([ledger.filePath, rota.filePath], 60);
        expect(many.data?.[0]?.signedUrl ?? null).toBeNull();
        const direct = await who.client.rpc('record_document_looks', {
          object_names: [ledger.filePath],
          action: 'downloaded',
        });
        expect(direct.error ?? direct.data).toBe(0);
      }
      expect(await looks()).toEqual([]);

      // Staff: a link made among others, fetched twice, then asked for its headers: one look.
      const many = await documents(staff).createSignedUrls([ledger.filePath, rota.filePath], 60);
      expect(many.error).toBeNull();
      const link = many.data!.find((entry) => entry.path === ledger.filePath)!.signedUrl!;
      for (const method of ['GET', 'GET', 'HEAD']) {
        const fetched = await fetch(link, { method });
        expect(fetched.status).toBe(200);
        await fetched.arrayBuffer();
      }
      expect(await looks()).toEqual([`document.viewed:${staff.userId}`]);

      // Finance: a download and a preview of the file under its name.
      expect((await documents(finance).download(ledger.filePath)).error).toBeNull();
      const own = await documents(finance).createSignedUrl(ledger.filePath, 60);
      const token = new URL(own.data!.signedUrl).searchParams.get('token')!;
      const preview = await fetch(`${server.url}/preview/v1/file/Ledger.txt?token=${token}`);
      expect(preview.status).toBe(200);
      expect(await preview.text()).toBe('Gift aid ledger');
      expect(await looks()).toEqual([
        `document.viewed:${staff.userId}`,
        `document.downloaded:${finance.userId}`,
        `document.viewed:${finance.userId}`,
      ]);
    });

    it('records no look at a file the read rule withholds, even from those who may view it', async () => {
      // The storage read policy and `record_document_looks` ask one rule; here a purged file on
      // its way out (`private.document_files_leaving`), which the rule withholds from everyone.
      const minutes = await uploadDocument(finance, church.id, {
        name: 'Minutes.txt',
        bytes: 'Trustees minutes',
        contentType: 'text/plain;charset=UTF-8',
        category: 'HR',
      });
      const lookAt = () =>
        finance.client.rpc('record_document_looks', {
          object_names: [minutes.filePath],
          action: 'downloaded',
        });
      await server.db
        .serverWork()
        .query(
          `insert into private.document_files_leaving (name, organization_id) values ($1, $2)`,
          [minutes.filePath, church.id],
        );
      const withheld = await finance.client.storage.from('documents').download(minutes.filePath);
      expect(withheld.error).not.toBeNull();
      const refused = await lookAt();
      expect(refused.error ?? refused.data).toBe(0);

      await server.db
        .serverWork()
        .query(`delete from private.document_files_leaving where name = $1`, [minutes.filePath]);
      const recorded = await lookAt();
      expect(recorded.error ?? recorded.data).toBe(1);
      const { rows } = await server.db.serverWork().query<{ looks: number }>(
        `select count(*)::integer as looks from public.activity_log
          where document_id = $1 and kind = 'document.downloaded'`,
        [minutes.id],
      );
      expect(rows[0]!.looks).toBe(1);
    });

    it('stops a signed link working when its signer loses access', async () => {
      const link = await staff.client.storage
        .from('documents')
        .createSignedUrl(payroll.filePath, 600);
      expect((await fetch(link.data!.signedUrl)).status).toBe(200);
      unwrap(await restrictHr([{ group_id: financeGroup, access: 'edit' }]), 'drop Staff');
      try {
        const after = await fetch(link.data!.signedUrl);
        expect(after.status).toBe(400);
        expect(await search(staff, { search: innerWord })).toEqual([]);
      } finally {
        unwrap(
          await restrictHr([
            { group_id: staffGroup, access: 'view' },
            { group_id: financeGroup, access: 'edit' },
          ]),
          'restore rules',
        );
      }
    });

    it('is granted by master admins alone', async () => {
      const result = await admin.client.rpc('set_category_access', {
        category_id: hr.id,
        restricted: false,
        rules: [],
      });
      expect(errorMessage(result)).toBe('Only master admins can change who may see a category');
      const foreign = await other.master.client.rpc('set_category_access', {
        category_id: hr.id,
        restricted: false,
        rules: [],
      });
      expect(errorMessage(foreign)).toBe('Category not found');
      const bad = await church.master.client.rpc('set_category_access', {
        category_id: hr.id,
        restricted: true,
        rules: [{ role: 'user', access: 'own' }],
      });
      expect(errorMessage(bad)).toBe('Access must be view or edit');
      expect((await categories(volunteer)).find((c) => c.name === 'HR')?.can_view).toBe(false);
    });
  });

  describe('groups', () => {
    it('are changed by an admin only where the admin holds the access they give', async () => {
      const promote = await admin.client.rpc('set_member_group_members', {
        group_id: financeGroup,
        user_ids: [finance.userId, admin.userId],
      });
      expect(errorMessage(promote)).toBe(
        'You can only change groups that give access you have yourself',
      );
      expect(
        errorMessage(await admin.client.rpc('delete_member_group', { group_id: financeGroup })),
      ).toBe('You can only change groups that give access you have yourself');
      expect(await visibleIds(admin)).not.toContain(payroll.id);

      // A group that gives no access is the admins' to change.
      const choir = unwrap(
        await admin.client.rpc('create_member_group', { name: 'Choir' }),
        'create Choir',
      ) as string;
      unwrap(
        await admin.client.rpc('set_member_group_members', {
          group_id: choir,
          user_ids: [volunteer.userId, admin.userId],
        }),
        'Choir members',
      );
      const members = unwrap(
        await volunteer.client.from('member_group_members').select('user_id').eq('group_id', choir),
        'read members',
      ) as { user_id: string }[];
      expect(members.map((m) => m.user_id).sort()).toEqual([volunteer.userId, admin.userId].sort());
      expect(
        errorMessage(
          await admin.client.rpc('set_member_group_members', {
            group_id: choir,
            user_ids: [other.master.userId],
          }),
        ),
      ).toBe('Some of the members were not found');
      unwrap(await admin.client.rpc('delete_member_group', { group_id: choir }), 'delete Choir');
      expect(
        errorMessage(await volunteer.client.rpc('create_member_group', { name: 'Mine' })),
      ).toBe('Only admins can manage categories and groups');
    });

    it('are not seen by another organisation', async () => {
      const { data } = await other.master.client.from('member_groups').select('id');
      expect(data).toEqual([]);
      const { data: rules } = await other.master.client.from('category_access').select('id');
      expect(rules).toEqual([]);
    });
  });

  describe('the Viewer role', () => {
    it('reads and downloads what it may view, and changes nothing', async () => {
      expect(await visibleIds(viewer)).toContain(rota.id);
      const download = await viewer.client.storage.from('documents').download(rota.filePath);
      expect(download.error).toBeNull();
      expect((await categories(viewer)).every((c) => !c.can_edit)).toBe(true);

      const insert = await viewer.client.from('documents').insert({
        organization_id: church.id,
        name: 'Mine.txt',
        category: 'Other',
        file_path: `documents/${church.id}/mine.txt`,
      });
      expect(insert.error).not.toBeNull();
      const update = await viewer.client
        .from('documents')
        .update({ name: 'Renamed.txt' })
        .eq('id', rota.id)
        .select('id');
      expect(update.data).toEqual([]);
      const remove = await viewer.client.rpc('delete_documents', { document_ids: [rota.id] });
      expect(errorMessage(remove)).toBe('Some of the selected documents were not found');
      const upload = await viewer.client.storage
        .from('documents')
        .upload(`documents/${church.id}/viewer.txt`, Buffer.from('x'), {
          contentType: 'text/plain',
        });
      expect(upload.error).not.toBeNull();
    });

    it('is a role master admins give and invitations carry', async () => {
      const newcomer = await addMember(server, church, 'user', 'newcomer');
      unwrap(
        await church.master.client.rpc('update_user_role', {
          user_id: newcomer.userId,
          new_role: 'viewer',
        }),
        'to viewer',
      );
      const { data } = await newcomer.client
        .from('user_profiles')
        .select('role')
        .eq('id', newcomer.userId)
        .single<{ role: string }>();
      expect(data?.role).toBe('viewer');
      const deactivated = await addDeactivatedMember(server, church, 'gone');
      expect(await visibleIds(deactivated)).toEqual([]);
    });
  });

  describe('every other path', () => {
    const soon = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);

    beforeAll(async () => {
      // Both documents expire soon, and the volunteer looks after both (as if the payroll had
      // been theirs before HR was restricted).
      await server.db
        .serverWork()
        .query(
          `update public.documents set expiry_date = $2, responsible_id = $3 where id = any ($1)`,
          [[payroll.id, rota.id], soon, volunteer.userId],
        );
    });

    it('sends by e-mail only what the sender may view, and never for a Viewer', async () => {
      const send = (who: Person, ids: string[]) =>
        who.client.rpc('send_documents_email', {
          recipients: ['auditor@example.org'],
          subject: 'Files',
          message: null,
          document_ids: ids,
          as_links: true,
        });
      expect(errorMessage(await send(volunteer, [payroll.id]))).toBe('Document not found');
      expect(errorMessage(await send(admin, [rota.id, payroll.id]))).toBe('Document not found');
      expect(errorMessage(await send(viewer, [rota.id]))).toBe(
        'Viewers cannot send documents by e-mail',
      );
      expect((await send(staff, [payroll.id])).error).toBeNull();
      // The Outbox keeps that message (its name, and a link that opens as Staff) from an admin
      // who may not view the payroll file; the master admin reads it.
      const outbox = async (who: Person) =>
        (
          unwrap(
            await who.client.from('outbox_messages').select('subject, attachments'),
            'outbox',
          ) as { attachments: { document_id: string }[] }[]
        ).flatMap((m) => m.attachments.map((a) => a.document_id));
      expect(await outbox(admin)).not.toContain(payroll.id);
      expect(await outbox(church.master)).toContain(payroll.id);
    });

    it('shows requests for documents into a category only to the admins who may view it', async () => {
      const [link] = unwrap(
        await church.master.client.rpc('create_document_request', {
          title: 'Signed contract',
          instructions: null,
          category: 'HR',
          tags: [],
          expiry_required: false,
          due_date: null,
          ask_for_renewal: false,
          recipients: [{ name: 'New organist' }],
        }),
        'create_document_request',
      ) as { request_id: string; recipient_id: string }[];
      const requestTitles = async (who: Person) =>
        (
          unwrap(
            await who.client.from('document_requests').select('title'),
            'document_requests',
          ) as { title: string }[]
        ).map((r) => r.title);
      const askedIds = async (who: Person) =>
        (
          unwrap(
            await who.client.from('document_request_recipients').select('id'),
            'document_request_recipients',
          ) as { id: string }[]
        ).map((r) => r.id);
      expect(await requestTitles(church.master)).toContain('Signed contract');
      expect(await askedIds(church.master)).toContain(link!.recipient_id);
      // An admin outside HR's rules: no request, nobody asked, and nothing to change.
      expect(await requestTitles(admin)).not.toContain('Signed contract');
      expect(await askedIds(admin)).not.toContain(link!.recipient_id);
      expect(
        errorMessage(
          await admin.client.rpc('add_document_request_recipients', {
            request_id: link!.request_id,
            recipients: [{ name: 'Someone else' }],
          }),
        ),
      ).toBe('Request not found');
      expect(
        errorMessage(
          await admin.client.rpc('resend_document_request', { recipient_id: link!.recipient_id }),
        ),
      ).toBe('Request not found');
      expect(
        errorMessage(
          await admin.client.rpc('close_document_request', { request_id: link!.request_id }),
        ),
      ).toBe('Request not found');
      unwrap(
        await church.master.client.rpc('close_document_request', { request_id: link!.request_id }),
        'close_document_request',
      );
    });

    it('does not send a message of documents once its sender may no longer view them', async () => {
      const sent = unwrap(
        await staff.client.rpc('send_documents_email', {
          recipients: ['auditor@example.org'],
          subject: 'Payroll for the audit',
          message: null,
          document_ids: [payroll.id],
          as_links: false,
        }),
        'send_documents_email',
      ) as { id: string; status: string };
      expect(['queued', 'outbox']).toContain(sent.status);
      // Staff leaves the group that may view HR before the message went.
      unwrap(
        await church.master.client.rpc('set_member_group_members', {
          group_id: staffGroup,
          user_ids: [],
        }),
        'Staff members',
      );
      try {
        const message = unwrap(
          await church.master.client
            .from('outbox_messages')
            .select('status, last_error')
            .eq('id', sent.id)
            .single(),
          'outbox message',
        );
        expect(message).toEqual({
          status: 'failed',
          last_error: 'Not sent: its sender may no longer view Payroll 2027.txt',
        });
        await server.jobs.runDue();
        expect(
          errorMessage(
            await church.master.client.rpc('retry_outbox_message', { message_id: sent.id }),
          ),
        ).toBe('Its sender may no longer view Payroll 2027.txt');
      } finally {
        unwrap(
          await church.master.client.rpc('set_member_group_members', {
            group_id: staffGroup,
            user_ids: [staff.userId],
          }),
          'Staff members again',
        );
      }
    });

    it('shows in a calendar feed only what its member may view', async () => {
      const feedOf = async (who: Person) => {
        const { token } = unwrap(
          await who.client
            .rpc('create_calendar_feed', { scope: 'all' })
            .single<{ token: string }>(),
          'create_calendar_feed',
        );
        const response = await fetch(`${server.url}/functions/v1/calendar/${token}.ics`);
        expect(response.status).toBe(200);
        return response.text();
      };
      const volunteers = await feedOf(volunteer);
      expect(volunteers).toContain('Volunteer rota');
      expect(volunteers).not.toContain('Payroll');
      const staffs = await feedOf(staff);
      expect(staffs).toContain('Payroll 2027');
    });

    it('reminds only those who may view a document', async () => {
      const today = new Date().toISOString().slice(0, 10);
      await server.db
        .serverWork()
        .query(`select private.run_reminders($1, $2::date)`, [church.id, today]);
      const { rows } = await server.db
        .serverWork()
        .query<{ recipients: string[]; content: unknown }>(
          `select recipients, content from public.outbox_messages
          where organization_id = $1 and kind = 'reminders'`,
          [church.id],
        );
      const namesFor = (who: Person) =>
        rows
          .filter((row) => row.recipients.includes(who.email))
          .flatMap((row) => JSON.stringify(row.content));
      expect(namesFor(volunteer).join()).toContain('Volunteer rota');
      expect(namesFor(volunteer).join()).not.toContain('Payroll');
      expect(namesFor(admin).join()).not.toContain('Payroll');
      // The volunteer may not view the payroll file: its reminder goes to the master admin.
      expect(namesFor(church.master).join()).toContain('Payroll 2027');
    });

    it('exports what the asking admin may view, and imports keep the categories', async () => {
      const exportAs = async (who: Person) => {
        const started = unwrap(
          await who.client.rpc('start_organization_export').single<{ id: string }>(),
          'start_organization_export',
        );
        await server.jobs.runDue();
        const row = unwrap(
          await who.client
            .from('organization_exports')
            .select('status, file_path')
            .eq('id', started.id)
            .single<{ status: string; file_path: string }>(),
          'export row',
        );
        expect(row.status).toBe('ready');
        const file = await who.client.storage.from('exports').download(row.file_path);
        const zip = new Uint8Array(await file.data!.arrayBuffer());
        const files = await unzip(zip);
        const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as {
          documents: { name: string; category: string }[];
        };
        return { zip, manifest };
      };
      // A restricted category of the church's own, unknown to the other organisation.
      const pastoral = unwrap(
        await church.master.client.rpc('create_document_category', { name: 'Pastoral notes' }),
        'create Pastoral notes',
      ) as string;
      await uploadDocument(church.master, church.id, {
        name: 'Visit notes.txt',
        bytes: 'Visited on Tuesday',
        contentType: 'text/plain;charset=UTF-8',
        category: 'Pastoral notes',
      });
      unwrap(
        await church.master.client.rpc('set_category_access', {
          category_id: pastoral,
          restricted: true,
          rules: [],
        }),
        'restrict Pastoral notes',
      );
      const byAdmin = (await exportAs(admin)).manifest;
      expect(byAdmin.documents.map((d) => d.name)).not.toContain('Payroll 2027.txt');
      expect(JSON.stringify(byAdmin)).not.toContain('Payroll 2027');
      const byMaster = await exportAs(church.master);
      expect(byMaster.manifest.documents.map((d) => d.name)).toContain('Payroll 2027.txt');
      expect(byMaster.manifest.documents.map((d) => d.category)).toContain('Music ministry');

      // Imported into another organisation, the documents keep their categories: the one it
      // lacked is added.
      const name = `${other.id}/church.zip`;
      unwrap(
        await other.master.client.storage
          .from('imports')
          .upload(name, byMaster.zip, { contentType: 'application/zip' }),
        'upload import',
      );
      unwrap(
        await other.master.client.rpc('start_organization_import', { file_path: name }),
        'start_organization_import',
      );
      await server.jobs.runDue();
      const imported = unwrap(
        await other.master.client.from('documents').select('name, category').order('name'),
        'imported documents',
      ) as { name: string; category: string }[];
      expect(imported).toContainEqual({ name: 'Anthem.txt', category: 'Music ministry' });
      const added = await categories(other.master);
      expect(added.find((c) => c.name === 'Music ministry')?.restricted).toBe(false);
      // Restricted where it came from: restricted here too, for the master admin to grant.
      expect(added.find((c) => c.name === 'Pastoral notes')?.restricted).toBe(true);
      expect(imported).toContainEqual({ name: 'Visit notes.txt', category: 'Pastoral notes' });

      // HR is restricted where it came from and open here (the starting list's): it is
      // restricted here with its rules, the groups they name made by name (their members are
      // people of the church's, not of this organisation), so a member here does not see the
      // payroll file.
      expect(byMaster.manifest).toMatchObject({
        categories: expect.arrayContaining([
          {
            name: 'HR',
            restricted: true,
            access: [
              { group: 'Finance team', access: 'edit' },
              { group: 'Staff', access: 'view' },
            ],
          },
        ]),
        groups: [
          { name: 'Finance team', members: [finance.email] },
          { name: 'Staff', members: [staff.email] },
        ],
      });
      expect(imported).toContainEqual({ name: 'Payroll 2027.txt', category: 'HR' });
      expect(added.find((c) => c.name === 'HR')?.restricted).toBe(true);
      const rules = unwrap(
        await other.master.client
          .from('category_access')
          .select('access, role, member_groups(name), document_categories!inner(name)')
          .eq('document_categories.name', 'HR'),
        'HR rules',
      ) as unknown as {
        access: string;
        role: string | null;
        member_groups: { name: string } | null;
      }[];
      expect(rules.map((r) => `${r.member_groups?.name ?? r.role}:${r.access}`).sort()).toEqual([
        'Finance team:edit',
        'Staff:view',
      ]);
      const newcomer = await addMember(server, other, 'user', 'newcomer');
      const seen = unwrap(
        await newcomer.client.from('documents').select('name'),
        'documents of a member',
      ) as { name: string }[];
      expect(seen.map((d) => d.name)).toContain('Anthem.txt');
      expect(seen.map((d) => d.name)).not.toContain('Payroll 2027.txt');
    });
  });
});
