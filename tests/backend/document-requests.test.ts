import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  errorMessage,
  uniqueEmail,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { textPdf } from '../support/sample-files.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { storedFiles } from './storage-helpers.ts';

// Document requests (issue 25, item 4; supabase/schemas/22_document_requests.sql,
// server/requests/): an admin asks named people for a document; each uploads through their own
// link without an account, with the bounds of any upload; the document arrives with the
// request's category and tags, "Received through request …" and the expiry given; the request
// shows who has sent theirs; the reminder run asks a sender for the renewal.

interface RequestLink {
  request_id: string;
  recipient_id: string;
  name: string;
  email: string | null;
  token: string;
  mail_status: string | null;
}

interface Sent {
  submitter_name?: string;
  submitter_email?: string;
  expiry_date?: string;
  file_name?: string;
  file?: Uint8Array;
}

const REQUEST = {
  title: 'Background-check certificate',
  instructions: 'A scan or photo of the whole certificate, please.',
  category: 'Volunteer/People Management',
  tags: ['safeguarding', ' volunteers ', 'Safeguarding'],
  expiry_required: true,
  due_date: '2099-01-31',
  ask_for_renewal: true,
};

/** Uploads through a request link as the upload page does: the fields, then the file. */
export async function sendThroughLink(server: TestServer, token: string, sent: Sent) {
  const form = new FormData();
  form.append('submitter_name', sent.submitter_name ?? 'Sam Volunteer');
  form.append('submitter_email', sent.submitter_email ?? '');
  form.append('expiry_date', sent.expiry_date ?? '');
  form.append('file_name', sent.file_name ?? 'certificate.pdf');
  if (sent.file) {
    form.append('file', new Blob([sent.file as BlobPart]), sent.file_name ?? 'certificate.pdf');
  }
  const response = await fetch(`${server.url}/requests/v1/${token}`, {
    method: 'POST',
    body: form,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('document requests', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let admin: Person;
  let user: Person;
  let pdf: Uint8Array;

  const create = (person: Person, recipients: unknown, fields: Partial<typeof REQUEST> = {}) =>
    person.client.rpc('create_document_request', { ...REQUEST, ...fields, recipients });

  const createLinks = async (person: Person, recipients: unknown, fields = {}) =>
    unwrap(await create(person, recipients, fields), 'create_document_request') as RequestLink[];

  const recipientRow = async (id: string) =>
    unwrap(
      await server.service().from('document_request_recipients').select('*').eq('id', id).single(),
      'recipient',
    ) as Record<string, unknown>;

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'Request Church');
    other = await createOrganisation(server, 'Elsewhere Church');
    admin = await addMember(server, church, 'admin', 'requester');
    user = await addMember(server, church, 'user', 'user');
    pdf = await textPdf(['Enhanced background check: clear']);
  });
  afterAll(() => server?.close());

  it('asks people by e-mail or a handed-out link, and receives the document with who sent it', async () => {
    const email = uniqueEmail('volunteer');
    const links = await createLinks(admin, [
      { name: 'Sam Volunteer', email },
      { name: 'Alex Leader' },
    ]);
    expect(links.map((link) => [link.name, link.email, link.mail_status])).toEqual([
      ['Sam Volunteer', email, 'outbox'],
      ['Alex Leader', null, null],
    ]);
    const [emailed, handed] = links as [RequestLink, RequestLink];
    expect(handed.token).toMatch(/^[0-9a-f]{64}$/);

    // The e-mail carries the link to the upload page.
    const messages = unwrap(
      await server
        .service()
        .from('outbox_messages')
        .select('subject, content')
        .eq('kind', 'document_request')
        .contains('recipients', [email]),
      'messages',
    ) as { subject: string; content: { token: string; recipient_name: string } }[];
    expect(messages[0]!.subject).toBe(
      'Request Church asks you for a document: Background-check certificate',
    );
    expect(messages[0]!.content).toMatchObject({
      token: emailed.token,
      recipient_name: 'Sam Volunteer',
    });

    const page = await fetch(`${server.url}/requests/v1/${handed.token}`);
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({
      organization_name: 'Request Church',
      title: 'Background-check certificate',
      instructions: 'A scan or photo of the whole certificate, please.',
      expiry_required: true,
      due_date: '2099-01-31',
      recipient_name: 'Alex Leader',
      recipient_email: null,
    });

    const sent = await sendThroughLink(server, handed.token, {
      submitter_name: 'Alex Leader',
      submitter_email: 'alex@example.test',
      expiry_date: '2029-03-31',
      file: pdf,
    });
    expect(sent).toEqual({
      status: 201,
      json: { document_name: 'Background-check certificate – Alex Leader.pdf' },
    });
    const recipient = await recipientRow(handed.recipient_id);
    expect(recipient).toMatchObject({
      submitter_name: 'Alex Leader',
      submitter_email: 'alex@example.test',
    });
    const document = unwrap(
      await admin.client
        .from('documents')
        .select('name, category, tags, expiry_date, description, responsible_id, file_path, size')
        .eq('id', recipient.document_id as string)
        .single(),
      'document',
    ) as Record<string, unknown>;
    expect(document).toMatchObject({
      name: 'Background-check certificate – Alex Leader.pdf',
      category: 'Volunteer/People Management',
      tags: ['safeguarding', 'volunteers'],
      expiry_date: '2029-03-31',
      description:
        'Received through request “Background-check certificate” from Alex Leader <alex@example.test>.',
      responsible_id: admin.userId,
      size: pdf.byteLength,
    });
    const file = await admin.client.storage
      .from('documents')
      .download(document.file_path as string);
    expect(new Uint8Array(await file.data!.arrayBuffer())).toEqual(pdf);
    const history = unwrap(
      await server
        .service()
        .from('activity_log')
        .select('kind, actor_name')
        .eq('document_id', recipient.document_id as string),
      'history',
    ) as { kind: string; actor_name: string }[];
    expect(history).toContainEqual({
      kind: 'document.received',
      actor_name: 'Alex Leader <alex@example.test> (through a request)',
    });

    // The link is used up; the request shows who has sent theirs and who has not.
    expect(
      (await sendThroughLink(server, handed.token, { expiry_date: '2029-03-31', file: pdf }))
        .status,
    ).toBe(404);
    const who = unwrap(
      await admin.client
        .from('document_request_recipients')
        .select('name, submitted_at')
        .eq('request_id', handed.request_id)
        .order('created_at'),
      'recipients',
    ) as { name: string; submitted_at: string | null }[];
    expect(who.map((row) => [row.name, row.submitted_at !== null])).toEqual([
      ['Sam Volunteer', false],
      ['Alex Leader', true],
    ]);
  });

  it('refuses what the person leaves out, and stores nothing', async () => {
    const [link] = await createLinks(admin, [{ name: 'Pat' }]);
    const filesBefore = (await storedFiles(server)).length;
    const noDate = await sendThroughLink(server, link!.token, { file: pdf });
    expect(noDate).toMatchObject({
      status: 400,
      json: { message: 'Please enter the expiry date' },
    });
    const noName = await sendThroughLink(server, link!.token, {
      submitter_name: ' ',
      expiry_date: '2029-01-01',
      file: pdf,
    });
    expect(noName.json.message).toBe('Please enter your name');
    const noFile = await sendThroughLink(server, link!.token, { expiry_date: '2029-01-01' });
    expect(noFile.json.message).toBe('Please choose the file to send');
    expect((await storedFiles(server)).length).toBe(filesBefore);
    expect((await recipientRow(link!.recipient_id)).submitted_at).toBeNull();
  });

  it('refuses hostile files on their bytes before storing them', async () => {
    const [link] = await createLinks(admin, [{ name: 'Mallory' }]);
    const filesBefore = (await storedFiles(server)).length;
    const html = new TextEncoder().encode('<html><script>alert(document.cookie)</script></html>');
    const disguised = await sendThroughLink(server, link!.token, {
      expiry_date: '2029-01-01',
      file_name: 'certificate.pdf',
      file: html,
    });
    expect(disguised.status).toBe(415);
    expect(disguised.json.message).toBe(
      'This file is not the .pdf file its name says. Please send a PDF, Word or Excel file, or a JPEG, PNG or GIF image.',
    );
    const script = await sendThroughLink(server, link!.token, {
      expiry_date: '2029-01-01',
      file_name: 'certificate.html',
      file: html,
    });
    expect(script.status).toBe(415);
    const empty = await sendThroughLink(server, link!.token, {
      expiry_date: '2029-01-01',
      file: new Uint8Array(0),
    });
    expect(empty).toMatchObject({ status: 415, json: { message: 'The file is empty.' } });
    expect((await storedFiles(server)).length).toBe(filesBefore);
    // The link still works for the real certificate.
    const real = await sendThroughLink(server, link!.token, {
      expiry_date: '2029-01-01',
      file: pdf,
    });
    expect(real.status).toBe(201);
  });

  it('lets only admins ask, list and close, each in their own organisation', async () => {
    expect(errorMessage(await create(user, [{ name: 'Pat' }]))).toBe(
      'Only admins can request documents',
    );
    expect(
      errorMessage(
        await server.anon().rpc('create_document_request', { ...REQUEST, recipients: [] }),
      ),
    ).not.toBeNull();
    const [link] = await createLinks(admin, [{ name: 'Chris' }]);
    // A member who is not an admin sees no requests.
    const seen = unwrap(await user.client.from('document_requests').select('id'), 'requests');
    expect(seen).toEqual([]);
    const outsiders = unwrap(
      await other.master.client.from('document_request_recipients').select('id'),
      'recipients',
    );
    expect(outsiders).toEqual([]);
    expect(
      errorMessage(
        await other.master.client.rpc('close_document_request', { request_id: link!.request_id }),
      ),
    ).toBe('Request not found');
    expect(
      errorMessage(
        await other.master.client.rpc('resend_document_request', {
          recipient_id: link!.recipient_id,
        }),
      ),
    ).toBe('Request not found');
    expect((await fetch(`${server.url}/requests/v1/${link!.token}`)).status).toBe(200);

    // Sending again replaces the link; closing the request ends every link.
    const again = unwrap(
      await admin.client
        .rpc('resend_document_request', { recipient_id: link!.recipient_id })
        .single<RequestLink>(),
      'resend',
    );
    expect((await fetch(`${server.url}/requests/v1/${link!.token}`)).status).toBe(404);
    expect((await fetch(`${server.url}/requests/v1/${again.token}`)).status).toBe(200);
    unwrap(
      await admin.client.rpc('close_document_request', { request_id: link!.request_id }),
      'close',
    );
    const closed = await fetch(`${server.url}/requests/v1/${again.token}`);
    expect(closed.status).toBe(404);
    expect(await closed.json()).toEqual({
      error: 'link_not_found',
      message: 'This link no longer works. Please ask whoever sent it for a new one.',
    });
  });

  it('stops the links of an admin who is deactivated or no longer an admin', async () => {
    const leaving = await addMember(server, church, 'admin', 'leaving-admin');
    const [link] = await createLinks(leaving, [{ name: 'Robin' }]);
    expect((await fetch(`${server.url}/requests/v1/${link!.token}`)).status).toBe(200);
    unwrap(
      await church.master.client.rpc('update_user_role', {
        user_id: leaving.userId,
        new_role: 'user',
      }),
      'demote',
    );
    expect((await fetch(`${server.url}/requests/v1/${link!.token}`)).status).toBe(404);
    unwrap(
      await church.master.client.rpc('update_user_role', {
        user_id: leaving.userId,
        new_role: 'admin',
      }),
      'promote',
    );
    unwrap(await church.master.client.rpc('deactivate_user', { user_id: leaving.userId }), 'off');
    const refused = await sendThroughLink(server, link!.token, {
      expiry_date: '2029-01-01',
      file: pdf,
    });
    expect(refused.status).toBe(404);
  });

  it('asks the sender for the renewal when the document nears its expiry, and keeps the earlier file', async () => {
    const email = uniqueEmail('first-aider');
    const [link] = await createLinks(admin, [{ name: 'Jo First-Aider', email }], {
      title: 'First-aid certificate',
    });
    const soon = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    expect(
      (
        await sendThroughLink(server, link!.token, {
          submitter_name: 'Jo',
          expiry_date: soon,
          file: pdf,
        })
      ).status,
    ).toBe(201);
    const documentId = (await recipientRow(link!.recipient_id)).document_id as string;

    const today = new Date().toISOString().slice(0, 10);
    await server.db
      .serverWork()
      .query('select private.run_reminders($1, $2::date)', [church.id, today]);
    const renewal = unwrap(
      await server
        .service()
        .from('document_request_recipients')
        .select('id, email, renews_document_id, renews_expiry_date')
        .eq('renews_document_id', documentId),
      'renewal',
    ) as { id: string; email: string; renews_expiry_date: string }[];
    expect(renewal).toEqual([expect.objectContaining({ email, renews_expiry_date: soon })]);
    // Once per document and expiry date.
    await server.db
      .serverWork()
      .query('select private.run_reminders($1, $2::date)', [church.id, today]);
    const messages = unwrap(
      await server
        .service()
        .from('outbox_messages')
        .select('subject, content')
        .eq('kind', 'document_request')
        .contains('recipients', [email])
        .order('created_at'),
      'messages',
    ) as { subject: string; content: { token?: string } }[];
    expect(messages.map((m) => m.subject)).toEqual([
      'Request Church asks you for a document: First-aid certificate',
      'Request Church asks you for the renewal of First-aid certificate',
    ]);

    const renewed = await textPdf(['Renewed first-aid certificate']);
    const token = messages[1]!.content.token!;
    const sent = await sendThroughLink(server, token, {
      submitter_name: 'Jo',
      expiry_date: '2030-05-01',
      file: renewed,
    });
    expect(sent.status).toBe(201);
    const document = unwrap(
      await admin.client
        .from('documents')
        .select('expiry_date, size')
        .eq('id', documentId)
        .single(),
      'document',
    );
    expect(document).toEqual({ expiry_date: '2030-05-01', size: renewed.byteLength });
    const versions = unwrap(
      await admin.client
        .from('document_versions')
        .select('change, size, expiry_date')
        .eq('document_id', documentId),
      'versions',
    );
    expect(versions).toEqual([{ change: 'renewal', size: pdf.byteLength, expiry_date: soon }]);
  });
});

describe('document requests: bounds', () => {
  let server: TestServer;
  let church: Organisation;
  let pdf: Uint8Array;

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        REQUEST_UPLOADS_PER_ADDRESS_PER_HOUR: '4',
        REQUEST_UPLOADS_PER_ORGANIZATION_PER_HOUR: '1',
        STORAGE_FILE_SIZE_LIMIT: String(200 * 1024),
        STORAGE_QUOTA_PER_ORGANIZATION: String(250 * 1024),
      },
    });
    church = await createOrganisation(server, 'Bounded Church');
    pdf = await textPdf(['certificate']);
  });
  afterAll(() => server?.close());

  /** A PDF of `kib` KiB: a PDF's header, then padding. */
  const pdfOf = (kib: number) => {
    const bytes = new Uint8Array(kib * 1024);
    bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
    return bytes;
  };

  it('bounds the size, the quota, the documents an organisation receives and the uploads of an address', async () => {
    const links = unwrap(
      await church.master.client.rpc('create_document_request', {
        ...REQUEST,
        expiry_required: false,
        recipients: [{ name: 'A' }, { name: 'B' }, { name: 'C' }],
      }),
      'create',
    ) as RequestLink[];
    const filesBefore = (await storedFiles(server)).length;
    const tooLarge = await sendThroughLink(server, links[0]!.token, { file: pdfOf(300) });
    expect(tooLarge).toMatchObject({
      status: 413,
      json: { message: 'The file is larger than 200 KB.' },
    });

    // The organisation's own files leave 60 KiB of its quota.
    unwrap(
      await server
        .service()
        .storage.from('documents')
        .upload(`documents/${church.id}/filler.pdf`, pdfOf(190), {
          contentType: 'application/pdf',
        }),
      'filler',
    );
    const full = await sendThroughLink(server, links[0]!.token, { file: pdfOf(100) });
    expect(full).toMatchObject({
      status: 413,
      json: {
        message:
          'The organization that asked for this document has no room left for it. Please let them know.',
      },
    });
    expect((await storedFiles(server)).length).toBe(filesBefore + 1);

    expect((await sendThroughLink(server, links[0]!.token, { file: pdf })).status).toBe(201);
    // The organisation has received its one of the hour; then the address has sent its four.
    const orgBound = await sendThroughLink(server, links[1]!.token, { file: pdf });
    expect(orgBound).toMatchObject({
      status: 429,
      json: {
        message:
          'This organization has received too many documents in the last hour. Please try again later.',
      },
    });
    const addressBound = await sendThroughLink(server, links[2]!.token, { file: pdf });
    expect(addressBound).toMatchObject({
      status: 429,
      json: {
        message: 'Too many files were sent from here in the last hour. Please try again later.',
      },
    });
  });
});

describe('document requests: the e-mail', () => {
  let smtp: TestSmtpServer;
  let server: TestServer;
  let church: Organisation;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({
      env: {
        SMTP_URL: smtp.url,
        SMTP_ADMIN_EMAIL: 'office@grace.example.org',
        AUTH_SITE_URL: 'http://steward.example.org',
        JOB_POLL_INTERVAL: '1h',
        MAIL_PER_ORGANIZATION_PER_HOUR: '100',
        MAIL_NEW_ORGANIZATION_PER_HOUR: '3',
        MAIL_NEW_ORGANIZATION_PERIOD: '1d',
      },
    });
    church = await createOrganisation(server, 'Grace Church');
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('delivers the link to the upload page, which then leaves the stored message', async () => {
    const email = uniqueEmail('leader');
    const [link] = unwrap(
      await church.master.client.rpc('create_document_request', {
        ...REQUEST,
        title: 'First-aid certificate',
        recipients: [{ name: 'Jo Leader', email }],
      }),
      'create',
    ) as RequestLink[];
    expect(link!.mail_status).toBe('queued');
    await server.jobs.runDue();
    const { envelope, mail } = smtp.received.at(-1)!;
    expect(envelope.to).toEqual([email]);
    expect(mail.subject).toBe('Grace Church asks you for a document: First-aid certificate');
    expect(mail.text).toContain('Hello Jo Leader,');
    expect(mail.text).toContain(`http://steward.example.org/r/${link!.token}`);
    expect(mail.text).toContain('A scan or photo of the whole certificate, please.');
    expect(mail.html).toContain(`http://steward.example.org/r/${link!.token}`);
    const stored = unwrap(
      await server
        .service()
        .from('outbox_messages')
        .select('status, text_body, html_body, content')
        .eq('kind', 'document_request')
        .contains('recipients', [email])
        .single(),
      'message',
    ) as { status: string; text_body: string; html_body: string; content: unknown };
    expect(stored.status).toBe('sent');
    expect(JSON.stringify(stored)).not.toContain(link!.token);
  });

  it("takes its recipients from the organisation's mail allowance, and records nothing past it", async () => {
    const newChurch = await createOrganisation(server, 'New Church');
    const people = [1, 2, 3].map((n) => ({
      name: `Leader ${n}`,
      email: uniqueEmail(`leader${n}`),
    }));
    const asked = await newChurch.master.client.rpc('create_document_request', {
      ...REQUEST,
      recipients: people,
    });
    expect(asked.error).toBeNull();
    const refused = await newChurch.master.client.rpc('create_document_request', {
      ...REQUEST,
      title: 'One more',
      recipients: [{ name: 'Leader 4', email: uniqueEmail('leader4') }],
    });
    expect(refused.error?.code).toBe('PT429');
    expect(refused.error?.message).toMatch(
      /^Your organization has reached its limit of 3 e-mail recipients an hour/,
    );
    const requests = await server.db
      .serverWork()
      .query('select title from public.document_requests where organization_id = $1', [
        newChurch.id,
      ]);
    expect(requests.rows).toEqual([{ title: REQUEST.title }]);
    // A link to hand out needs no e-mail.
    const handed = await newChurch.master.client.rpc('create_document_request', {
      ...REQUEST,
      title: 'One more',
      recipients: [{ name: 'Leader 4' }],
    });
    expect(handed.error).toBeNull();
  });
});

// Issue 23 and 25 together: a request files what it receives into its category, so only an admin
// who may edit there may make one, and its links work only while its maker still may
// (private.member_may_file_document).
describe('document requests into a restricted category', () => {
  let server: TestServer;
  let church: Organisation;
  let financeAdmin: Person;
  let staffAdmin: Person;
  let admin: Person;
  let financeGroup: string;

  const create = (person: Person, category: string) =>
    person.client.rpc('create_document_request', {
      ...REQUEST,
      category,
      recipients: [{ name: 'Sam Volunteer' }],
    });
  const setFinance = async (userIds: string[]) =>
    unwrap(
      await church.master.client.rpc('set_member_group_members', {
        group_id: financeGroup,
        user_ids: userIds,
      }),
      'Finance members',
    );

  beforeAll(async () => {
    server = await startTestServer();
    church = await createOrganisation(server, 'Restricted Request Church');
    financeAdmin = await addMember(server, church, 'admin', 'finance');
    staffAdmin = await addMember(server, church, 'admin', 'staff');
    admin = await addMember(server, church, 'admin', 'admin');
    financeGroup = unwrap(
      await church.master.client.rpc('create_member_group', { name: 'Finance team' }),
      'create_member_group',
    ) as string;
    const staffGroup = unwrap(
      await church.master.client.rpc('create_member_group', { name: 'Staff' }),
      'create_member_group',
    ) as string;
    await setFinance([financeAdmin.userId]);
    unwrap(
      await church.master.client.rpc('set_member_group_members', {
        group_id: staffGroup,
        user_ids: [staffAdmin.userId],
      }),
      'Staff members',
    );
    const categories = unwrap(
      await church.master.client.rpc('my_document_categories'),
      'my_document_categories',
    ) as { id: string; name: string }[];
    const id = (name: string) => categories.find((c) => c.name === name)!.id;
    unwrap(
      await church.master.client.rpc('set_category_access', {
        category_id: id('HR'),
        restricted: true,
        rules: [
          { group_id: staffGroup, access: 'view' },
          { group_id: financeGroup, access: 'edit' },
        ],
      }),
      'set_category_access',
    );
    unwrap(
      await church.master.client.rpc('retire_document_category', { category_id: id('Branding') }),
      'retire_document_category',
    );
  }, 180_000);
  afterAll(() => server?.close());

  it('is made only by an admin who may edit in the category, and never into a retired one', async () => {
    for (const outsider of [admin, staffAdmin]) {
      expect(errorMessage(await create(outsider, 'HR'))).toBe(
        'You do not have access to this category',
      );
    }
    expect(errorMessage(await create(church.master, 'Branding'))).toBe('This category is retired');
    expect(errorMessage(await create(admin, 'Choir robes'))).toBe('Choose one of the categories');
    const { data: requests } = await server
      .service()
      .from('document_requests')
      .select('id')
      .eq('organization_id', church.id);
    expect(requests).toEqual([]);
    const links = unwrap(await create(financeAdmin, 'HR'), 'create') as RequestLink[];
    expect(links).toHaveLength(1);
  });

  it('takes no upload once its maker may no longer edit in the category', async () => {
    const [link] = unwrap(await create(financeAdmin, 'HR'), 'create') as RequestLink[];
    const page = `${server.url}/requests/v1/${link!.token}`;
    expect((await fetch(page)).status).toBe(200);
    await setFinance([]);
    expect((await fetch(page)).status).toBe(404);
    const refused = await sendThroughLink(server, link!.token, {
      expiry_date: '2099-06-30',
      file: await textPdf(['Payslip']),
    });
    expect(refused.status).toBe(404);
    await setFinance([financeAdmin.userId]);
  });
});
