import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/jobs/clock.ts';
import {
  addMember,
  createOrganisation,
  errorMessage,
  unwrap,
  type Organisation,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { uploadDocument } from './document-helpers.ts';

// Issue 24: an organisation's name and time zone, and its own departments, through supabase-js
// against the running server.

interface Department {
  id: string;
  key: string;
  name: string;
  position: number;
  hidden: boolean;
  categories: string[];
  tags: string[];
}

const SPEC_KEYS = [
  'foster-adopt',
  'r-kids',
  'r-youth',
  'creative-media',
  'cge',
  'sunday-production',
  'worship',
  'elder-board',
  'deacon-board',
];

describe("an organisation's name and time zone", () => {
  let smtp: TestSmtpServer;
  let server: TestServer;
  let church: Organisation;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({
      env: { SMTP_URL: smtp.url, SMTP_ADMIN_EMAIL: 'office@grace.example.org' },
    });
    church = await createOrganisation(server, 'First Church');
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('renames the organisation: members read the new name and e-mails carry it', async () => {
    const renamed = unwrap(
      await church.master.client
        .rpc('update_organization', { name: '  Grace Community Church ', time_zone: null })
        .single<{ name: string }>(),
      'update_organization',
    );
    expect(renamed.name).toBe('Grace Community Church');
    const member = await addMember(server, church, 'user', 'reader');
    const seen = unwrap(
      await member.client.from('organizations').select('name').single<{ name: string }>(),
      'organization',
    );
    expect(seen.name).toBe('Grace Community Church');

    const document = await uploadDocument(member, church, { name: 'Rota.txt' });
    unwrap(
      await member.client.rpc('send_documents_email', {
        recipients: ['volunteer@example.org'],
        subject: 'The rota',
        message: '',
        document_ids: [document.id],
        as_links: false,
      }),
      'send_documents_email',
    );
    await server.jobs.runDue();
    expect(smtp.received.at(-1)!.mail.text).toContain('of Grace Community Church sent you');
  });

  it('sets the time zone the reminders are sent in, refusing an unknown one', async () => {
    unwrap(
      await church.master.client.rpc('update_organization', {
        name: 'Grace Community Church',
        time_zone: 'America/Chicago',
      }),
      'update_organization',
    );
    const settings = unwrap(
      await church.master.client
        .from('reminder_settings')
        .select('time_zone, send_hour')
        .single<{ time_zone: string; send_hour: number }>(),
      'reminder_settings',
    );
    expect(settings).toEqual({ time_zone: 'America/Chicago', send_hour: 8 });

    const bad = await church.master.client.rpc('update_organization', {
      name: 'Renamed meanwhile',
      time_zone: 'Mars/Olympus',
    });
    expect(errorMessage(bad)).toBe('Unknown time zone: Mars/Olympus');
    // One transaction: the name did not change either.
    const { rows } = await server.db
      .serverWork()
      .query<{ name: string }>('select name from public.organizations where id = $1', [church.id]);
    expect(rows[0]!.name).toBe('Grace Community Church');
  });

  it('refuses members, blank and long names', async () => {
    const member = await addMember(server, church, 'user', 'not-admin');
    expect(
      errorMessage(
        await member.client.rpc('update_organization', { name: 'Mine', time_zone: null }),
      ),
    ).toBe('Only admins can change the organization settings');
    expect(
      errorMessage(
        await church.master.client.rpc('update_organization', { name: '   ', time_zone: null }),
      ),
    ).toBe('Organization name is required');
    expect(
      errorMessage(
        await church.master.client.rpc('update_organization', {
          name: 'x'.repeat(201),
          time_zone: null,
        }),
      ),
    ).toBe('Organization name must be at most 200 characters');
  });
});

describe("an organisation's own departments", () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;

  const departments = async (org: Organisation) =>
    unwrap(
      await org.master.client
        .from('departments')
        .select('id, key, name, position, hidden, categories, tags')
        .order('position'),
      'departments',
    ) as Department[];

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'Departments Church');
    other = await createOrganisation(server, 'Other Church');
  });
  afterAll(() => server?.close());

  it("starts with the specification's nine, each fed by its key and name as tags", async () => {
    const list = await departments(church);
    expect(list.map((d) => d.key)).toEqual(SPEC_KEYS);
    expect(list.find((d) => d.key === 'r-kids')).toMatchObject({
      name: 'R/Kids',
      hidden: false,
      categories: [],
      tags: ['r-kids', 'R/Kids', 'r/kids'],
    });
    // Another organisation's are its own.
    const theirs = await departments(other);
    expect(theirs.map((d) => d.id).filter((id) => list.some((d) => d.id === id))).toEqual([]);
  });

  it('keeps the key when renamed, so the page keeps its address', async () => {
    const kids = (await departments(church)).find((d) => d.key === 'r-kids')!;
    const renamed = unwrap(
      await church.master.client
        .from('departments')
        .update({ name: '  Children  ' })
        .eq('id', kids.id)
        .select('key, name')
        .single(),
      'rename',
    );
    expect(renamed).toEqual({ key: 'r-kids', name: 'Children' });
  });

  it('adds one with a key made from its name, numbered when taken, last in the order', async () => {
    const add = async (name: string) =>
      unwrap(
        await church.master.client
          .from('departments')
          .insert({
            organization_id: church.id,
            name,
            categories: [' Legal ', 'legal', 'governance', ''],
            tags: ['youth', 'youth', ' Youth '],
          })
          .select('key, position, categories, tags')
          .single(),
        `add ${name}`,
      ) as Pick<Department, 'key' | 'position' | 'categories' | 'tags'>;
    const first = await add('Youth & Family');
    expect(first).toEqual({
      key: 'youth-family',
      position: 10,
      categories: ['Legal', 'Governance'],
      tags: ['youth', 'Youth'],
    });
    // The categories are the organisation's own, spelled as it spells them (issue 23).
    const spelled = await add('Legal team');
    expect(spelled.categories).toEqual(['Legal', 'Governance']);
    const unknown = await church.master.client
      .from('departments')
      .insert({ organization_id: church.id, name: 'Music', categories: ['Hymnals'] });
    expect(errorMessage(unknown)).toBe('Unknown category: Hymnals');
    expect((await add('Youth/Family')).key).toBe('youth-family-2');
    expect((await add('!!!')).key).toBe('department');
    // A key cannot be chosen or changed through the API.
    const chosen = await church.master.client
      .from('departments')
      .insert({ organization_id: church.id, name: 'Mine', key: 'r-kids' });
    expect(chosen.status).toBe(403);
  });

  it('reorders, hides and removes departments; members only read them', async () => {
    const list = await departments(church);
    const reversed = [...list].reverse().map((d) => d.id);
    unwrap(
      await church.master.client.rpc('reorder_departments', { department_ids: reversed }),
      'reorder',
    );
    expect((await departments(church)).map((d) => d.id)).toEqual(reversed);
    expect(
      errorMessage(
        await church.master.client.rpc('reorder_departments', {
          department_ids: reversed.slice(1),
        }),
      ),
    ).toBe('Name each department of the organization once');

    const member = await addMember(server, church, 'user', 'member');
    const seen = unwrap(await member.client.from('departments').select('key'), 'member reads') as {
      key: string;
    }[];
    expect(seen).toHaveLength(list.length);
    // A Viewer (issue 23) reads them too: the department pages are theirs as well.
    const viewer = await addMember(server, church, 'viewer', 'viewer');
    const viewed = unwrap(await viewer.client.from('departments').select('key'), 'viewer reads');
    expect(viewed).toHaveLength(list.length);
    const hidden = await member.client
      .from('departments')
      .update({ hidden: true })
      .eq('key', 'cge')
      .select('id');
    expect(hidden.data).toEqual([]);

    unwrap(
      await church.master.client.from('departments').update({ hidden: true }).eq('key', 'cge'),
      'hide',
    );
    unwrap(
      await church.master.client.from('departments').delete().eq('key', 'department'),
      'remove',
    );
    const after = await departments(church);
    expect(after.find((d) => d.key === 'cge')!.hidden).toBe(true);
    expect(after.some((d) => d.key === 'department')).toBe(false);
  });

  it("feeds a department's page from its categories and tags", async () => {
    const member = await addMember(server, church, 'user', 'uploader');
    const legal = await uploadDocument(member, church, { name: 'Bylaws', category: 'Legal' });
    const tagged = await uploadDocument(member, church, {
      name: 'Camp form',
      category: 'Other',
      tags: ['youth'],
    });
    await uploadDocument(member, church, { name: 'Unrelated', category: 'Other' });
    const page = unwrap(
      await member.client.rpc('search_documents', {
        section_categories: ['Legal', 'Governance'],
        section_tags: ['youth', 'Youth'],
      }),
      'search_documents',
    ) as { id: string; total_count: number }[];
    expect(page.map((row) => row.id).sort()).toEqual([legal.id, tagged.id].sort());
    expect(page[0]!.total_count).toBe(2);
  });
});

describe("the reminders follow the organisation's time zone", () => {
  let server: TestServer;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock('2027-01-10T06:00:00Z');
    server = await startTestServer({ clock, env: { JOB_POLL_INTERVAL: '1h' } });
    await server.jobs.runDue();
  });
  afterAll(() => server?.close());

  const digestCount = async (organisation: Organisation) => {
    const { rows } = await server.db
      .serverWork()
      .query(
        `select 1 from public.outbox_messages where organization_id = $1 and kind = 'reminders'`,
        [organisation.id],
      );
    return rows.length;
  };

  it('sends the digest at 08:00 in Chicago, not at 08:00 UTC, once the time zone is set', async () => {
    const church = await createOrganisation(server, 'Chicago Church');
    unwrap(
      await church.master.client.rpc('update_organization', {
        name: 'Chicago Church',
        time_zone: 'America/Chicago',
      }),
      'update_organization',
    );
    await uploadDocument(church.master, church, { name: 'Insurance', expiry_date: '2027-01-17' });
    // 08:00 UTC is 02:00 in Chicago (UTC-6 in January): nothing yet.
    clock.set('2027-01-10T08:30:00Z');
    await server.jobs.runDue();
    expect(await digestCount(church)).toBe(0);
    // 14:00 UTC is 08:00 in Chicago.
    clock.set('2027-01-10T14:05:00Z');
    await server.jobs.runDue();
    expect(await digestCount(church)).toBe(1);
  });
});
