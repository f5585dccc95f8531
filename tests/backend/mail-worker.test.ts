import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/jobs/clock.ts';
import { uploadDocument } from '../support/documents.ts';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';

// The `mail-worker` edge function (supabase/functions/mail-worker/), as pg_cron runs it on a
// hosted project: served by the embedded server, called over HTTP with the service-role key and
// the time it runs at, delivering to a real SMTP server. The embedded server's own job runner
// is left idle (a one-hour poll, never woken here), and each delivery is checked to have been
// made by the function.

const SITE = 'https://office.example.org';
const SENDER = 'office@grace.example.org';

interface Summary {
  reminder_runs: number;
  digests: number;
  sent: number;
  outbox: number;
  retried: number;
  failed: number;
  more: boolean;
}

interface OutboxRow {
  id: string;
  recipients: string[];
  status: string;
  attempts: number;
  last_error: string | null;
  text_body: string | null;
}

describe('the mail-worker edge function', () => {
  let server: TestServer;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({
      // The server's own clock stays before every time the function is called with.
      clock: new ManualClock('2026-01-01T00:00:00Z'),
      env: {
        AUTH_SITE_URL: SITE,
        JOB_POLL_INTERVAL: '1h',
        SMTP_URL: smtp.url,
        SMTP_ADMIN_EMAIL: SENDER,
        SMTP_SENDER_NAME: 'Grace Church Office',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  /** Calls the function as pg_net does: a POST with `key` as the bearer token. */
  const call = (key: string | null, body: unknown = {}) =>
    fetch(`${server.url}/functions/v1/mail-worker`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(key === null ? {} : { Authorization: `Bearer ${key}` }),
      },
      body: JSON.stringify(body),
    });

  /** Runs the function with the service-role key at `now`; its summary. */
  async function runAt(now: string): Promise<Summary> {
    const response = await call(server.keys.serviceRoleKey, { now });
    expect(response.status).toBe(200);
    return (await response.json()) as Summary;
  }

  async function outbox(organisation: Organisation, kind: string): Promise<OutboxRow[]> {
    return unwrap(
      await server
        .service()
        .from('outbox_messages')
        .select('id, recipients, status, attempts, last_error, text_body')
        .eq('organization_id', organisation.id)
        .eq('kind', kind)
        .order('created_at'),
      'outbox',
    ) as OutboxRow[];
  }

  /** Who finished each delivery job of these messages (the function's runners are named so). */
  async function deliveredBy(ids: string[]): Promise<string[]> {
    const { rows } = await server.db.serverWork().query<{ locked_by: string | null }>(
      `select locked_by from private.jobs
       where kind = 'mail.deliver' and payload ->> 'message_id' = any ($1::text[])`,
      [ids],
    );
    return rows.map((row) => row.locked_by ?? '');
  }

  const receivedBy = (person: Person) =>
    smtp.received.filter((message) => message.envelope.to.includes(person.email));

  async function church(name: string) {
    const organisation = await createOrganisation(server, name);
    const admin = await addMember(server, organisation, 'admin');
    const user = await addMember(server, organisation, 'user');
    return { organisation, admin, user, master: organisation.master };
  }

  async function addDocument(
    organisation: Organisation,
    name: string,
    expiry: string,
    responsible: Person,
  ) {
    return (
      unwrap(
        await server
          .service()
          .from('documents')
          .insert({
            organization_id: organisation.id,
            name,
            category: 'Legal',
            file_path: `documents/${organisation.id}/${name.replace(/\W/g, '-')}.pdf`,
            expiry_date: expiry,
            responsible_id: responsible.userId,
          })
          .select('id')
          .single(),
        `document ${name}`,
      ) as { id: string }
    ).id;
  }

  it('refuses every caller but the service role, before doing anything', async () => {
    const { organisation, user } = await church('Refusing Church');
    await addDocument(organisation, 'Insurance', '2027-01-05', user);
    const { data } = await user.client.auth.getSession();
    const userToken = data.session!.access_token;

    const missing = await call(null, { now: '2027-01-02T09:00:00Z' });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ code: 401, message: 'Missing authorization header' });
    const forged = await call('not-a-jwt', { now: '2027-01-02T09:00:00Z' });
    expect(forged.status).toBe(401);
    await forged.body?.cancel();
    for (const key of [server.keys.anonKey, userToken]) {
      const refused = await call(key, { now: '2027-01-02T09:00:00Z' });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        code: 403,
        message: 'Only the service role may run the mail worker',
      });
    }
    // Nothing ran: no digest was recorded for the document that is due that day.
    expect(await outbox(organisation, 'reminders')).toEqual([]);

    const bad = await call(server.keys.serviceRoleKey, { now: 'tomorrow' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'now must be an ISO 8601 time' });
  });

  it('sends a due reminder once, however often and however concurrently it is called', async () => {
    const { organisation, admin, user, master } = await church('Once Church');
    const certificate = await addDocument(organisation, 'Fire certificate', '2027-02-06', user);

    // Before the organisation's hour (08:00 UTC by default) nothing is due.
    expect(await runAt('2027-02-01T07:30:00Z')).toMatchObject({ digests: 0, sent: 0 });
    expect(receivedBy(user)).toEqual([]);

    // Three overlapping calls at the hour, as overlapping cron runs would make.
    const summaries = await Promise.all([
      runAt('2027-02-01T08:00:00Z'),
      runAt('2027-02-01T08:00:00Z'),
      runAt('2027-02-01T08:00:00Z'),
    ]);
    expect(summaries.reduce((sum, s) => sum + s.digests, 0)).toBeGreaterThanOrEqual(3);
    // Later calls the same day, and the next day, find nothing new for this document.
    await runAt('2027-02-01T12:00:00Z');
    await runAt('2027-02-02T08:00:00Z');

    for (const person of [user, admin, master]) expect(receivedBy(person)).toHaveLength(1);
    const [mine] = receivedBy(user);
    expect(mine!.mail.subject).toBe('Renewals at Once Church: 1 expiring soon');
    expect(mine!.mail.from?.value).toEqual([{ name: 'Grace Church Office', address: SENDER }]);
    expect(mine!.mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mine!.mail.text).toContain('Fire certificate: expires on Feb 06, 2027 (in 5 days)');
    expect(mine!.mail.text).toContain(`${SITE}/documents?document=${certificate}`);
    expect(mine!.mail.html).toContain(`href="${SITE}/documents?document=${certificate}"`);

    const digests = await outbox(organisation, 'reminders');
    expect(digests.map((d) => [d.status, d.attempts, d.last_error])).toEqual([
      ['sent', 1, null],
      ['sent', 1, null],
      ['sent', 1, null],
    ]);
    // The stored text is the text that was sent.
    expect(digests.find((d) => d.recipients[0] === user.email)!.text_body).toBe(mine!.mail.text);
    const runners = await deliveredBy(digests.map((d) => d.id));
    expect(runners).toHaveLength(3);
    for (const runner of runners) expect(runner).toMatch(/^mail-worker-/);
  });

  it('retries while the SMTP server is down, with the error in the Outbox, and sends once it is back', async () => {
    const { organisation, user } = await church('Retry Church');
    await addDocument(organisation, 'Lease', '2027-03-08', user);
    smtp.answer = { code: 421, message: 'Service not available, closing channel' };
    try {
      const first = await runAt('2027-03-01T09:00:00Z');
      expect(first.retried).toBeGreaterThanOrEqual(3);
      expect(first.sent).toBe(0);
      const waiting = await outbox(organisation, 'reminders');
      expect(waiting).toHaveLength(3);
      for (const message of waiting) {
        expect(message).toMatchObject({ status: 'queued', attempts: 1 });
        expect(message.last_error).toContain('Service not available');
      }
      // The admins read the error in the Outbox.
      const admins = unwrap(
        await organisation.master.client
          .from('outbox_messages')
          .select('status, last_error')
          .eq('kind', 'reminders'),
        'outbox as admin',
      ) as { status: string; last_error: string }[];
      expect(admins.map((m) => m.status)).toEqual(['queued', 'queued', 'queued']);

      // Ten seconds on, the retry is not due yet (30 s after the first attempt).
      const refusedSoFar = smtp.refused;
      expect(await runAt('2027-03-01T09:00:10Z')).toMatchObject({ retried: 0, sent: 0 });
      expect(smtp.refused).toBe(refusedSoFar);
    } finally {
      smtp.answer = 'accept';
    }

    const later = await runAt('2027-03-01T09:00:31Z');
    expect(later.sent).toBeGreaterThanOrEqual(3);
    expect(receivedBy(user)).toHaveLength(1);
    const sent = await outbox(organisation, 'reminders');
    expect(sent.map((m) => [m.status, m.attempts, m.last_error])).toEqual([
      ['sent', 2, null],
      ['sent', 2, null],
      ['sent', 2, null],
    ]);
    await runAt('2027-03-01T10:00:00Z');
    expect(receivedBy(user)).toHaveLength(1);
  });

  it('marks a message failed when the SMTP server refuses it for good, and does not send it again', async () => {
    const { organisation, user } = await church('Refused Church');
    await addDocument(organisation, 'Licence', '2027-04-08', user);
    smtp.answer = { code: 550, message: 'Mailbox unavailable' };
    try {
      expect((await runAt('2027-04-01T09:00:00Z')).failed).toBeGreaterThanOrEqual(3);
    } finally {
      smtp.answer = 'accept';
    }
    const failed = await outbox(organisation, 'reminders');
    expect(failed.map((m) => m.status)).toEqual(['failed', 'failed', 'failed']);
    expect(failed[0]!.last_error).toContain('Mailbox unavailable');
    await runAt('2027-04-01T12:00:00Z');
    expect(receivedBy(user)).toEqual([]);
  });

  it('delivers documents a member e-mailed, with their files read from Storage', async () => {
    const { organisation, user } = await church('Documents Church');
    const bytes = 'The minutes of the meeting.\n';
    const document = await uploadDocument(user, organisation.id, {
      name: 'Minutes.txt',
      bytes,
      contentType: 'text/plain',
    });
    const recipient = 'treasurer@elsewhere.example.org';
    unwrap(
      await user.client.rpc('send_documents_email', {
        recipients: [recipient],
        subject: 'The minutes',
        message: 'Here they are.',
        document_ids: [document.id],
        as_links: false,
      }),
      'send_documents_email',
    );
    expect((await runAt(new Date(Date.now() + 60_000).toISOString())).sent).toBeGreaterThanOrEqual(
      1,
    );
    const received = smtp.received.filter((m) => m.envelope.to.includes(recipient));
    expect(received).toHaveLength(1);
    expect(received[0]!.mail.subject).toBe('The minutes');
    expect(received[0]!.mail.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([
      ['Minutes.txt', bytes],
    ]);
    expect((await outbox(organisation, 'documents')).map((m) => m.status)).toEqual(['sent']);
  });
});
