import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundWork } from '../../server/background-work.ts';
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { ManualClock } from '../../server/jobs/clock.ts';
import { JobRunner } from '../../server/jobs/job-runner.ts';
import { Scheduler } from '../../server/jobs/scheduler.ts';
import type { AppContext } from '../../server/context.ts';
import {
  addMember,
  createOrganisation,
  errorMessage,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

// Daily reminders (migration 20261127000502, server/reminders/), with a clock the test moves:
// one digest per recipient at the organisation's hour in its time zone, each threshold once per
// renewal cycle, paused by the renewal marker, caught up after downtime, never twice.

const SITE = 'https://office.example.org';
const DAY = 86_400_000;

interface Digest {
  recipients: string[];
  subject: string;
  dedupe_key: string;
  text_body: string | null;
  status: string;
  content: {
    total: number;
    overdue: number;
    local_date: string;
    items: { id: string; name: string; days_left: number; threshold: string }[];
  };
}

/** `yyyy-mm-dd` of `date` plus `days`. */
const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

describe('daily reminders', () => {
  let server: TestServer;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock('2027-03-01T06:00:00Z');
    server = await startTestServer({
      clock,
      env: { AUTH_SITE_URL: SITE, JOB_POLL_INTERVAL: '1h' },
    });
    // The schedule starts counting from here.
    await server.jobs.runDue();
  });
  afterAll(() => server?.close());

  /** Moves the clock to `iso` and runs whatever is due then, as the server would. */
  async function at(iso: string) {
    clock.set(iso);
    await server.jobs.runDue();
  }

  async function digests(organisation: Organisation): Promise<Digest[]> {
    return unwrap(
      await server
        .service()
        .from('outbox_messages')
        .select('recipients, subject, dedupe_key, text_body, status, content')
        .eq('organization_id', organisation.id)
        .eq('kind', 'reminders')
        .order('created_at'),
      'digests',
    ) as Digest[];
  }

  /** The digests of `person`, newest last. */
  const digestsOf = async (organisation: Organisation, person: Person) =>
    (await digests(organisation)).filter((d) => d.recipients.includes(person.email));

  async function addDocument(
    organisation: Organisation,
    name: string,
    expiry: string | null,
    responsible: Person | null,
  ): Promise<string> {
    const row = unwrap(
      await server
        .service()
        .from('documents')
        .insert({
          organization_id: organisation.id,
          name,
          category: 'Legal',
          file_path: `documents/${organisation.id}/${Date.now()}-${randomBytes(4).toString('hex')}.pdf`,
          expiry_date: expiry,
          responsible_id: responsible?.userId ?? null,
        })
        .select('id')
        .single(),
      `document ${name}`,
    ) as { id: string };
    return row.id;
  }

  async function church(name: string) {
    const organisation = await createOrganisation(server, name);
    const admin = await addMember(server, organisation, 'admin');
    const user = await addMember(server, organisation, 'user');
    return { organisation, admin, user, master: organisation.master };
  }

  it('sends one digest per recipient at the hour, listing each threshold once per cycle', async () => {
    const { organisation, admin, user, master } = await church('Hour Church');
    const today = '2027-03-01';
    const in30 = await addDocument(organisation, 'Insurance', plusDays(today, 30), user);
    const in5 = await addDocument(organisation, 'Fire certificate', plusDays(today, 5), user);
    await addDocument(organisation, 'Lease', plusDays(today, 100), user);
    await addDocument(organisation, 'Minutes', null, user);

    await at(`${today}T07:59:00Z`);
    expect(await digests(organisation)).toEqual([]);

    await at(`${today}T08:00:00Z`);
    const first = await digests(organisation);
    // The responsible member and both admins (the default is both).
    expect(first.map((d) => d.recipients[0]).sort()).toEqual(
      [user.email, admin.email, master.email].sort(),
    );
    const mine = first.find((d) => d.recipients[0] === user.email)!;
    expect(mine.content.items.map((i) => [i.id, i.days_left, i.threshold])).toEqual([
      [in5, 5, 'before:7'],
      [in30, 30, 'before:30'],
    ]);
    expect(mine.subject).toBe('Renewals at Hour Church: 2 expiring soon');
    expect(mine.dedupe_key).toBe(`reminders:${user.userId}:${today}`);
    // Without SMTP the digest is written out and kept in the Outbox, with links back.
    expect(mine.status).toBe('outbox');
    expect(mine.text_body).toContain(`${SITE}/documents?document=${in5}`);
    expect(mine.text_body).toContain('Fire certificate: expires on Mar 06, 2027 (in 5 days)');

    // Later that day, and the next days, the same thresholds do not fire again.
    await at(`${today}T16:00:00Z`);
    await at(`${plusDays(today, 1)}T08:30:00Z`);
    await at(`${plusDays(today, 2)}T09:00:00Z`);
    expect(await digests(organisation)).toHaveLength(3);

    // 23 days on, the insurance reaches 7 days; the certificate is overdue since yesterday.
    await at(`${plusDays(today, 23)}T08:00:00Z`);
    const later = (await digestsOf(organisation, user)).at(-1)!;
    expect(later.content.items.map((i) => [i.id, i.days_left, i.threshold])).toEqual([
      [in5, -18, 'overdue:2'],
      [in30, 7, 'before:7'],
    ]);
    expect(later.subject).toBe('Renewals at Hour Church: 1 overdue, 1 expiring soon');
  });

  it('reminds on the day a document becomes overdue and then weekly', async () => {
    const { organisation, user } = await church('Overdue Church');
    await at('2027-04-01T05:00:00Z');
    const due = await addDocument(organisation, 'Licence', '2027-04-03', user);
    const thresholds = async () =>
      (await digestsOf(organisation, user)).map(
        (d) => `${d.content.local_date} ${d.content.items.map((i) => i.threshold).join()}`,
      );
    for (let day = 1; day <= 19; day += 1) {
      await at(`2027-04-${String(day).padStart(2, '0')}T08:00:00Z`);
    }
    expect(await thresholds()).toEqual([
      '2027-04-01 before:7',
      '2027-04-02 before:1',
      '2027-04-04 overdue:0',
      '2027-04-11 overdue:1',
      '2027-04-18 overdue:2',
    ]);
    expect(due).toBeTruthy();
  });

  it('starts again when the expiry date changes, and pauses while a renewal is in progress', async () => {
    const { organisation, user } = await church('Cycle Church');
    await at('2027-05-01T05:00:00Z');
    const certificate = await addDocument(organisation, 'DBS check', '2027-05-06', user);
    const paused = await addDocument(organisation, 'Safeguarding', '2027-05-06', user);
    unwrap(
      await user.client
        .from('documents')
        .update({ renewal_in_progress: true, renewal_note: 'Awaiting the new check' })
        .eq('id', paused),
      'mark',
    );
    await at('2027-05-01T08:00:00Z');
    const listed = async () =>
      (await digestsOf(organisation, user)).map((d) => d.content.items.map((i) => i.id));
    expect(await listed()).toEqual([[certificate]]);

    // Renewed with a new date: its thresholds fire again in the new cycle.
    unwrap(
      await user.client
        .from('documents')
        .update({ expiry_date: '2027-05-31' })
        .eq('id', certificate),
      'new date',
    );
    // The marker goes: the paused document's due threshold fires at the next run.
    unwrap(
      await user.client.from('documents').update({ renewal_in_progress: false }).eq('id', paused),
      'unmark',
    );
    await at('2027-05-02T08:00:00Z');
    expect(await listed()).toEqual([[certificate], [paused, certificate]]);
  });

  it('catches up after downtime with the threshold that is due, once', async () => {
    const { organisation, user } = await church('Downtime Church');
    await at('2027-06-01T05:00:00Z');
    const document = await addDocument(organisation, 'Boiler service', '2027-06-09', user);
    // The server is down from before the 7-day reminder (June 2) until June 5, 14:00.
    await at('2027-06-05T14:00:00Z');
    const all = await digestsOf(organisation, user);
    expect(all).toHaveLength(1);
    expect(all[0]!.content.local_date).toBe('2027-06-05');
    expect(all[0]!.content.items).toEqual([
      expect.objectContaining({ id: document, days_left: 4, threshold: 'before:7' }),
    ]);
  });

  it('sends to the recipients the organisation chose, falls back to admins, and honours opt-outs', async () => {
    const { organisation, admin, user, master } = await church('Recipients Church');
    const leaver = await addMember(server, organisation, 'user', 'leaver');
    await at('2027-07-01T05:00:00Z');
    unwrap(
      await admin.client
        .from('reminder_settings')
        .upsert({ organization_id: organisation.id, recipients: 'responsible' }),
      'settings',
    );
    const usersDocument = await addDocument(organisation, 'Rota', '2027-07-02', user);
    const leaversDocument = await addDocument(organisation, 'Keys', '2027-07-02', leaver);
    unwrap(
      await master.client.rpc('deactivate_user', { user_id: leaver.userId }),
      'deactivate leaver',
    );
    // The master admin turns their own reminders off.
    unwrap(
      await master.client
        .from('user_profiles')
        .update({ email_reminders: false })
        .eq('id', master.userId),
      'opt out',
    );
    await at('2027-07-01T08:00:00Z');
    const sent = await digests(organisation);
    const to = (person: Person) =>
      sent
        .filter((d) => d.recipients[0] === person.email)
        .map((d) => d.content.items.map((i) => i.id));
    expect(to(user)).toEqual([[usersDocument]]);
    // The deactivated member's document goes to the admins who did not opt out.
    expect(to(admin)).toEqual([[leaversDocument]]);
    expect(to(master)).toEqual([]);
    expect(to(leaver)).toEqual([]);
    expect(sent).toHaveLength(2);
  });

  it('sends at the hour of the organisation’s time zone, counting days from its own date', async () => {
    const { organisation, admin, user } = await church('Auckland Church');
    unwrap(
      await admin.client.from('reminder_settings').upsert({
        organization_id: organisation.id,
        time_zone: 'Pacific/Auckland',
        send_hour: 7,
        days_before: [3, 14, 3],
      }),
      'settings',
    );
    // Members read the settings; only admins change them.
    await user.client
      .from('reminder_settings')
      .update({ send_hour: 9 })
      .eq('organization_id', organisation.id);
    const stored = unwrap(
      await user.client
        .from('reminder_settings')
        .select('days_before, time_zone, send_hour')
        .eq('organization_id', organisation.id)
        .single(),
      'read settings',
    );
    expect(stored).toEqual({ days_before: [14, 3], time_zone: 'Pacific/Auckland', send_hour: 7 });
    expect(
      errorMessage(
        await admin.client
          .from('reminder_settings')
          .update({ time_zone: 'Mars/Olympus_Mons' })
          .eq('organization_id', organisation.id),
      ),
    ).toBe('Unknown time zone: Mars/Olympus_Mons');

    // 2027-08-10 07:00 in Auckland (NZST, +12) is 2027-08-09 19:00 UTC.
    const document = await addDocument(organisation, 'Hall hire', '2027-08-13', user);
    await at('2027-08-09T18:59:00Z');
    expect(await digests(organisation)).toEqual([]);
    await at('2027-08-09T19:00:00Z');
    const mine = await digestsOf(organisation, user);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.content.local_date).toBe('2027-08-10');
    expect(mine[0]!.content.items).toEqual([
      expect.objectContaining({ id: document, days_left: 3, threshold: 'before:3' }),
    ]);
  });

  it('summarises thousands of expiring documents in one message per recipient', async () => {
    const { organisation, user } = await church('Big Church');
    await at('2027-09-01T05:00:00Z');
    // Rows without files: reading 2,500 missing files' text in the background is not this
    // test's subject, so none is queued meanwhile.
    await server.db
      .serverWork()
      .query(`update private.text_extraction_settings set enabled = false`);
    await server.db.serverWork().query(
      `insert into public.documents (organization_id, name, category, file_path, expiry_date, responsible_id)
       select $1::uuid, 'Permit ' || lpad(n::text, 4, '0'), 'Legal',
              'documents/' || $1::text || '/' || n || '.pdf', date '2027-09-04', $2::uuid
       from generate_series(1, 2500) n`,
      [organisation.id, user.userId],
    );
    await server.db
      .serverWork()
      .query(`update private.text_extraction_settings set enabled = true`);
    await at('2027-09-01T08:00:00Z');
    const mine = await digestsOf(organisation, user);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.content.total).toBe(2500);
    expect(mine[0]!.content.items).toHaveLength(100);
    expect(mine[0]!.subject).toBe('Renewals at Big Church: 2500 expiring soon');
    expect(mine[0]!.text_body).toContain(`…and 2400 more: ${SITE}/documents?expiry=soon`);
    expect(mine[0]!.text_body).toContain('Permit 0001: expires on Sep 04, 2027 (in 3 days)');
  });

  it('never sends twice with two runners on one database', async () => {
    const { organisation, admin, user, master } = await church('Twice Church');
    await at('2027-10-01T05:00:00Z');
    await addDocument(organisation, 'Gas safety', '2027-10-05', user);
    // A second server process: its own connection pool on PostgreSQL (one database for both).
    const secondDb: Database = server.databaseUrl
      ? await openPostgres(server.databaseUrl)
      : server.db;
    const work = backgroundWork(
      {
        db: secondDb,
        clock,
        config: server.config,
        keys: server.keys,
        cpu: server.cpu,
        backgroundProcesses: server.backgroundProcesses,
        publicUrl: () => server.url,
        siteUrl: () => server.config.auth.siteUrl ?? server.url,
        get jobs() {
          return second;
        },
      } as AppContext,
      server.backgroundProcesses,
    );
    const scheduler = new Scheduler(secondDb, clock, work.schedules);
    const second: JobRunner = new JobRunner({
      db: secondDb,
      clock,
      kinds: work.kinds,
      concurrency: 2,
      pollIntervalMs: 3_600_000,
      beforeClaim: () => scheduler.runDue(),
    });
    try {
      // The same day's work also given twice over, as two processes' schedules could.
      for (const key of ['elsewhere-1', 'elsewhere-2']) {
        await server.db.serverWork().query(
          `select private.enqueue_job('reminders.organization',
                    jsonb_build_object('organization_id', $1::text, 'local_date', '2027-10-01'),
                    $1::uuid, $2, '2027-10-01T08:00:00Z'::timestamptz, 3)`,
          [organisation.id, key],
        );
      }
      clock.set('2027-10-01T08:00:00Z');
      await Promise.all([server.jobs.runDue(), second.runDue(), server.jobs.runDue()]);
      await at('2027-10-01T08:15:00Z');
      const sent = await digests(organisation);
      expect(sent.map((d) => d.recipients[0]).sort()).toEqual(
        [user.email, admin.email, master.email].sort(),
      );
    } finally {
      await second.stop();
      if (secondDb !== server.db) await secondDb.close();
    }
  });
});
