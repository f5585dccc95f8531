import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/jobs/clock.ts';
import {
  addDeactivatedMember,
  addMember,
  createOrganisation,
  errorMessage,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { uploadDocument, type StoredDocument } from './document-helpers.ts';
import { enrol } from './totp-helpers.ts';

// E-mail for real (server/mail/): every message is recorded first, then delivered by a
// background job through a real SMTP server started here (nodemailer's smtp-server), and the
// messages are read back with mailparser. Without SMTP, messages stay in the Outbox.

const SITE = 'https://office.example.org';

interface MessageRow {
  id: string;
  kind: string;
  status: string;
  attempts: number;
  last_error: string | null;
  recipients: string[];
  subject: string;
  text_body: string | null;
  html_body: string | null;
  links: { url: string; label: string; expires_at: string }[];
  sent_at: string | null;
  content: Record<string, unknown>;
}

async function messageRow(server: TestServer, id: string): Promise<MessageRow> {
  return unwrap(
    await server.service().from('outbox_messages').select('*').eq('id', id).single(),
    'outbox message',
  ) as MessageRow;
}

async function messageCount(server: TestServer): Promise<number> {
  const { count } = await server
    .service()
    .from('outbox_messages')
    .select('id', { count: 'exact', head: true });
  return count ?? 0;
}

describe('mail through SMTP', () => {
  let smtp: TestSmtpServer;
  let server: TestServer;
  let clock: ManualClock;
  let church: Organisation;
  let other: Organisation;
  let member: Person;
  let document: StoredDocument;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    clock = new ManualClock(new Date(Date.now() + 60_000));
    server = await startTestServer({
      clock,
      env: {
        SMTP_URL: smtp.url,
        SMTP_ADMIN_EMAIL: 'office@grace.example.org',
        SMTP_SENDER_NAME: 'Grace Church Office',
        AUTH_SITE_URL: SITE,
        // The test moves the clock and runs due jobs itself.
        JOB_POLL_INTERVAL: '1h',
      },
    });
    church = await createOrganisation(server, 'Grace Church');
    other = await createOrganisation(server, 'Other Church');
    member = await addMember(server, church, 'user', 'sender');
    document = await uploadDocument(member, church, {
      name: 'Safeguarding certificate.txt',
      content: 'Certified: safeguarding training, level 2.',
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('records documents sent as attachments first, then delivers text, HTML and the file', async () => {
    const before = smtp.received.length;
    const result = unwrap(
      await member.client
        .rpc('send_documents_email', {
          recipients: ['insurer@example.org', ' Clerk@Example.org '],
          subject: 'Our certificate',
          message: 'Here it is.\nWith thanks, the office',
          document_ids: [document.id],
          as_links: false,
        })
        .single<{ id: string; status: string }>(),
      'send_documents_email',
    );
    expect(result.status).toBe('queued');
    const recorded = await messageRow(server, result.id);
    expect(recorded).toMatchObject({ kind: 'documents', status: 'queued', attempts: 0 });
    expect(recorded.recipients.sort()).toEqual(['Clerk@Example.org', 'insurer@example.org']);
    expect(smtp.received.length).toBe(before);

    await server.jobs.runDue();
    expect(smtp.received.length).toBe(before + 1);
    const { envelope, mail } = smtp.received.at(-1)!;
    expect(envelope.from).toBe('office@grace.example.org');
    // nodemailer writes domains in lower case; the mailbox part is the recipient's own.
    expect(envelope.to.sort()).toEqual(['Clerk@example.org', 'insurer@example.org']);
    expect(mail.from?.value).toEqual([
      { address: 'office@grace.example.org', name: 'Grace Church Office' },
    ]);
    expect(mail.subject).toBe('Our certificate');
    expect(mail.messageId).toBe(`<${result.id}@grace.example.org>`);
    expect(mail.text).toContain('of Grace Church sent you 1 document.');
    expect(mail.text).toContain('Here it is.\nWith thanks, the office');
    expect(mail.text).toContain('Safeguarding certificate.txt');
    expect(mail.html).toContain('Safeguarding certificate.txt');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]!.filename).toBe('Safeguarding certificate.txt');
    expect(mail.attachments[0]!.content.toString('utf8')).toBe(
      'Certified: safeguarding training, level 2.',
    );

    const sent = await messageRow(server, result.id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(sent.sent_at).not.toBeNull();
    expect(sent.text_body?.trim()).toBe(mail.text?.trim());
  });

  it('sends signed links that work for anyone, until the sender is deactivated', async () => {
    const sender = await addMember(server, church, 'user', 'linker');
    const result = unwrap(
      await sender.client
        .rpc('send_documents_email', {
          recipients: ['auditor@example.org'],
          subject: 'Certificate link',
          message: null,
          document_ids: [document.id],
          as_links: true,
        })
        .single<{ id: string; status: string }>(),
      'send_documents_email',
    );
    await server.jobs.runDue();
    const { mail } = smtp.received.at(-1)!;
    expect(mail.attachments).toHaveLength(0);
    const row = await messageRow(server, result.id);
    expect(row.links).toHaveLength(1);
    const link = new URL(row.links[0]!.url);
    expect(`${link.origin}`).toBe(SITE);
    expect(mail.text).toContain(row.links[0]!.url);

    // The link as the recipient opens it (here on the test server's own address).
    const download = await fetch(`${server.url}${link.pathname}${link.search}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('Certified: safeguarding training, level 2.');

    unwrap(
      await church.master.client.rpc('deactivate_user', { user_id: sender.userId }),
      'deactivate',
    );
    const refused = await fetch(`${server.url}${link.pathname}${link.search}`);
    expect(refused.status).not.toBe(200);
  });

  it('sends links that open for an admin who proved the second factor their organisation requires', async () => {
    const strict = await createOrganisation(server, 'Strict Mail Church');
    await enrol(strict.master.client);
    unwrap(
      await strict.master.client.rpc('set_two_factor_requirement', { required: true }),
      'require two-factor',
    );
    const admin = await addMember(server, strict, 'admin', 'strict-sender');
    await enrol(admin.client);
    const minutes = await uploadDocument(admin, strict, {
      name: 'Council minutes.txt',
      content: 'Minutes of the parish council.',
    });
    const result = unwrap(
      await admin.client
        .rpc('send_documents_email', {
          recipients: ['auditor@example.org'],
          subject: 'Minutes',
          message: null,
          document_ids: [minutes.id],
          as_links: true,
        })
        .single<{ id: string; status: string }>(),
      'send_documents_email',
    );
    await server.jobs.runDue();
    const row = await messageRow(server, result.id);
    expect(row.status).toBe('sent');
    const link = new URL(row.links[0]!.url);
    const download = await fetch(`${server.url}${link.pathname}${link.search}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('Minutes of the parish council.');
  });

  it('records a failed attempt, retries it later, and gives up at once on a permanent refusal', async () => {
    smtp.answer = { code: 451, message: 'Mailbox busy, try again later' };
    const send = async (subject: string) =>
      unwrap(
        await member.client
          .rpc('send_documents_email', {
            recipients: ['board@example.org'],
            subject,
            message: null,
            document_ids: [document.id],
            as_links: false,
          })
          .single<{ id: string }>(),
        'send',
      ).id;
    const delayed = await send('Retried');
    await server.jobs.runDue();
    const failedOnce = await messageRow(server, delayed);
    expect(failedOnce).toMatchObject({ status: 'queued', attempts: 1 });
    expect(failedOnce.last_error).toContain('Mailbox busy');

    smtp.answer = 'accept';
    clock.advance(29_000);
    await server.jobs.runDue();
    expect((await messageRow(server, delayed)).status).toBe('queued');
    clock.advance(2_000);
    await server.jobs.runDue();
    expect(await messageRow(server, delayed)).toMatchObject({
      status: 'sent',
      attempts: 2,
      last_error: null,
    });

    smtp.answer = { code: 550, message: 'No such user here' };
    const refused = smtp.refused;
    const rejected = await send('Rejected');
    await server.jobs.runDue();
    const failed = await messageRow(server, rejected);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.last_error).toContain('No such user here');
    clock.advance(3_600_000);
    await server.jobs.runDue();
    expect(smtp.refused).toBe(refused + 1);

    // An admin sends it again once the address is fixed on the other side.
    smtp.answer = 'accept';
    expect(
      errorMessage(await member.client.rpc('retry_outbox_message', { message_id: rejected })),
    ).toBe('Insufficient permissions to manage the outbox');
    unwrap(
      await church.master.client.rpc('retry_outbox_message', { message_id: rejected }),
      'retry',
    );
    await server.jobs.runDue();
    expect((await messageRow(server, rejected)).status).toBe('sent');
  });

  it('e-mails an invitation with its link, and forgets the token once it is sent', async () => {
    const invited = unwrap(
      await church.master.client
        .rpc('invite_user_by_email', {
          email: 'New.Volunteer@example.org',
          role: 'user',
          full_name: 'Nell Volunteer',
        })
        .single<{
          id: string;
          email: string;
          token: string;
          mail_id: string;
          mail_status: string;
        }>(),
      'invite_user_by_email',
    );
    expect(invited.email).toBe('new.volunteer@example.org');
    expect(invited.mail_status).toBe('queued');
    expect(invited.token).toMatch(/^[0-9a-f]{64}$/);
    await server.jobs.runDue();
    const { envelope, mail } = smtp.received.at(-1)!;
    expect(envelope.to).toEqual(['new.volunteer@example.org']);
    expect(mail.subject).toBe('You are invited to join Grace Church');
    expect(mail.text).toContain('Hello Nell Volunteer,');
    expect(mail.text).toContain(`${SITE}/invite/${invited.token}`);
    expect(mail.html).toContain(`${SITE}/invite/${invited.token}`);

    const row = await messageRow(server, invited.mail_id);
    expect(row.status).toBe('sent');
    expect(JSON.stringify(row)).not.toContain(invited.token);
    // The link itself still works.
    const details = await server.anon().rpc('get_invitation', { token: invited.token });
    expect(details.error).toBeNull();

    expect(
      errorMessage(
        await member.client.rpc('invite_user_by_email', {
          email: 'someone@example.org',
          role: 'user',
          full_name: null,
        }),
      ),
    ).toBe('Insufficient permissions to invite users');
  });

  it('refuses bad addresses, empty subjects and foreign documents before recording anything', async () => {
    const foreign = await uploadDocument(other.master, other, { name: 'Other.txt' });
    const deactivated = await addDeactivatedMember(server, church);
    const before = await messageCount(server);
    const attempt = (person: Person, args: Record<string, unknown>) =>
      person.client.rpc('send_documents_email', {
        recipients: ['pat@example.org'],
        subject: 'Documents',
        message: null,
        document_ids: [document.id],
        as_links: false,
        ...args,
      });
    expect(errorMessage(await attempt(member, { recipients: [' ', ''] }))).toBe(
      'Please enter at least one recipient email address',
    );
    expect(errorMessage(await attempt(member, { recipients: ['not an address'] }))).toBe(
      'Invalid email address: not an address',
    );
    expect(errorMessage(await attempt(member, { recipients: ['a,b@example.org'] }))).toBe(
      'Invalid email address: a,b@example.org',
    );
    expect(
      errorMessage(await attempt(member, { recipients: ['x@example.org\nBcc: y@example.org'] })),
    ).toMatch(/^Invalid email address/);
    expect(errorMessage(await attempt(member, { subject: '   ' }))).toBe('Subject is required');
    expect(errorMessage(await attempt(member, { document_ids: [] }))).toBe(
      'Select at least one document',
    );
    expect(errorMessage(await attempt(member, { document_ids: [foreign.id] }))).toBe(
      'Document not found',
    );
    expect(errorMessage(await attempt(deactivated, {}))).toBe('No organization found');
    expect(await messageCount(server)).toBe(before);
  });
});

describe('mail without SMTP: the Outbox', () => {
  let server: TestServer;
  let church: Organisation;
  let admin: Person;
  let member: Person;
  let document: StoredDocument;

  beforeAll(async () => {
    server = await startTestServer({ env: { AUTH_SITE_URL: SITE, JOB_POLL_INTERVAL: '1h' } });
    church = await createOrganisation(server, 'Outbox Church');
    admin = await addMember(server, church, 'admin');
    member = await addMember(server, church, 'user');
    document = await uploadDocument(member, church, { name: 'Lease.txt' });
  });
  afterAll(() => server?.close());

  it('keeps the message in the Outbox, says so, and lets only admins read it', async () => {
    const result = unwrap(
      await member.client
        .rpc('send_documents_email', {
          recipients: ['landlord@example.org'],
          subject: 'The lease',
          message: null,
          document_ids: [document.id],
          as_links: false,
        })
        .single<{ id: string; status: string }>(),
      'send',
    );
    expect(result.status).toBe('outbox');
    await server.jobs.runDue();
    const row = await messageRow(server, result.id);
    expect(row).toMatchObject({ status: 'outbox', attempts: 0, sent_at: null });
    expect(row.text_body).toContain('Lease.txt');
    expect(row.html_body).toContain('Lease.txt');

    const asAdmin = unwrap(
      await admin.client.from('outbox_messages').select('id, status, subject'),
      'admin reads',
    );
    expect(asAdmin).toEqual([{ id: result.id, status: 'outbox', subject: 'The lease' }]);
    expect(unwrap(await member.client.from('outbox_messages').select('id'), 'member')).toEqual([]);
    expect(
      errorMessage(await admin.client.rpc('retry_outbox_message', { message_id: result.id })),
    ).toBe('E-mail delivery is not configured: messages stay in the Outbox');
  });

  it(
    'stops an organisation sending more than 100 document e-mails an hour',
    { timeout: 120_000 },
    async () => {
      const sender = await addMember(server, church, 'user', 'busy-sender');
      const send = (n: number) =>
        sender.client.rpc('send_documents_email', {
          recipients: [`reader-${n}@example.org`],
          subject: `Copy ${n}`,
          message: null,
          document_ids: [document.id],
          as_links: true,
        });
      const { count } = await server
        .service()
        .from('outbox_messages')
        .select('id', { count: 'exact', head: true })
        .eq('organization_id', church.id)
        .eq('kind', 'documents');
      for (let n = count ?? 0; n < 100; n += 1) {
        expect(errorMessage(await send(n))).toBeNull();
      }
      expect(errorMessage(await send(100))).toBe(
        'Too many e-mails sent in the last hour; please try again later',
      );
    },
  );

  it('keeps an invitation with its link in the Outbox, for the admin to pass on', async () => {
    const invited = unwrap(
      await admin.client
        .rpc('invite_user_by_email', { email: 'helper@example.org', role: 'user', full_name: null })
        .single<{ token: string; mail_id: string; mail_status: string }>(),
      'invite',
    );
    expect(invited.mail_status).toBe('outbox');
    await server.jobs.runDue();
    const row = await messageRow(server, invited.mail_id);
    expect(row.status).toBe('outbox');
    expect(row.text_body).toContain(`${SITE}/invite/${invited.token}`);
  });
});
