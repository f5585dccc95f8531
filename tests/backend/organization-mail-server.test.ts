import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganisation,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';

// Issue 24, item 3: an organisation's own sender. Its admins save an SMTP server through the
// `organization-mail-server` edge function (the password encrypted there, never readable
// through the API), send themselves a test e-mail, and its mail then goes through that server
// while other organisations' goes through the installation's. Real SMTP servers on 127.0.0.1,
// which the installation allows on their own ports only (ORGANIZATION_SMTP_ALLOWED_HOSTS).

const CHURCH_USER = 'office@grace.example.org';
const CHURCH_PASSWORD = 'the church office password';

interface SavedServer {
  host: string;
  port: number;
  username: string | null;
  has_password: boolean;
  from_address: string;
}

async function refusal(error: unknown): Promise<{ status: number; error: string }> {
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const response = (error as FunctionsHttpError).context as Response;
  return { status: response.status, error: ((await response.json()) as { error: string }).error };
}

function save(person: Person, body: Record<string, unknown>) {
  return person.client.functions.invoke<SavedServer>('organization-mail-server', { body });
}

/** The message once its one attempt is over (sent or failed). */
async function settled(server: TestServer, id: string) {
  for (let waited = 0; waited < 60_000; waited += 200) {
    const { data } = await server
      .service()
      .from('outbox_messages')
      .select('status, last_error, recipients, subject')
      .eq('id', id)
      .single<{
        status: string;
        last_error: string | null;
        recipients: string[];
        subject: string;
      }>();
    if (data && data.status !== 'queued') return data;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`message ${id} was not delivered in time`);
}

async function sendTest(person: Person): Promise<string> {
  return unwrap(await person.client.rpc('send_test_email'), 'send_test_email') as string;
}

describe("an organisation's own sender, beside the installation's SMTP server", () => {
  let installationSmtp: TestSmtpServer;
  let churchSmtp: TestSmtpServer;
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;

  beforeAll(async () => {
    installationSmtp = await startSmtpServer();
    churchSmtp = await startSmtpServer({ users: { [CHURCH_USER]: CHURCH_PASSWORD } });
    server = await startTestServer({
      env: {
        SMTP_URL: installationSmtp.url,
        SMTP_ADMIN_EMAIL: 'steward@installation.example.org',
        ORGANIZATION_SMTP_ALLOWED_HOSTS: `127.0.0.1:${new URL(churchSmtp.url).port}`,
      },
    });
    church = await createOrganisation(server, 'Grace Church');
    other = await createOrganisation(server, 'Other Church');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await installationSmtp?.close();
    await churchSmtp?.close();
  });

  const churchServer = () => ({
    host: '127.0.0.1',
    port: Number(new URL(churchSmtp.url).port),
    username: CHURCH_USER,
    fromAddress: 'office@grace.example.org',
  });

  it('keeps the password encrypted, out of every browser role', async () => {
    const { data, error } = await save(church.master, {
      ...churchServer(),
      password: CHURCH_PASSWORD,
    });
    expect(error).toBeNull();
    expect(data).toEqual({
      host: '127.0.0.1',
      port: churchServer().port,
      username: CHURCH_USER,
      has_password: true,
      from_address: 'office@grace.example.org',
    });

    const stored = unwrap(
      await server
        .service()
        .from('organization_mail_servers')
        .select('password_ciphertext')
        .eq('organization_id', church.id)
        .single<{ password_ciphertext: string }>(),
      'stored password',
    );
    expect(stored.password_ciphertext).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(stored.password_ciphertext).not.toContain(CHURCH_PASSWORD);

    const asAdmin = await church.master.client
      .from('organization_mail_servers')
      .select('password_ciphertext');
    expect(asAdmin.error?.code).toBe('42501');
    const visible = await church.master.client
      .from('organization_mail_servers')
      .select('host, has_password');
    expect(visible.data).toEqual([{ host: '127.0.0.1', has_password: true }]);
    // Another organisation's admin sees no row of it.
    const outsider = await other.master.client
      .from('organization_mail_servers')
      .select('host, has_password');
    expect(outsider.data).toEqual([]);

    // Saving again without a password keeps the stored one.
    expect(
      (await save(church.master, { ...churchServer(), password: '' })).data?.has_password,
    ).toBe(true);
  });

  it('sends a test e-mail to the admin through the organisation server', async () => {
    const admin = await addMember(server, church, 'admin', 'test-admin');
    const id = await sendTest(admin);
    const message = await settled(server, id);
    expect(message).toMatchObject({ status: 'sent', last_error: null });
    const received = churchSmtp.received.find((r) => r.envelope.to.includes(admin.email));
    expect(received?.envelope.from).toBe('office@grace.example.org');
    expect(received?.mail.from?.value).toEqual([
      { address: 'office@grace.example.org', name: 'Grace Church' },
    ]);
    expect(received?.mail.subject).toBe('Test e-mail from Grace Church');
    expect(received?.mail.text).toContain(
      `It was sent through your organization's mail server, 127.0.0.1:${churchServer().port}.`,
    );
    expect(installationSmtp.received.some((r) => r.envelope.to.includes(admin.email))).toBe(false);
  });

  it("sends the organisation's invitations through it, and another's through the installation's", async () => {
    const invited = unwrap(
      await church.master.client.rpc('invite_user_by_email', {
        email: 'new.volunteer@example.org',
        role: 'user',
        full_name: 'New Volunteer',
      }),
      'invite',
    ) as { mail_id: string };
    const othersInvite = unwrap(
      await other.master.client.rpc('invite_user_by_email', {
        email: 'someone.else@example.org',
        role: 'user',
        full_name: 'Someone Else',
      }),
      'invite',
    ) as { mail_id: string };
    expect((await settled(server, invited.mail_id)).status).toBe('sent');
    expect((await settled(server, othersInvite.mail_id)).status).toBe('sent');

    const ours = churchSmtp.received.find((r) =>
      r.envelope.to.includes('new.volunteer@example.org'),
    );
    expect(ours?.envelope.from).toBe('office@grace.example.org');
    expect(
      installationSmtp.received.some((r) => r.envelope.to.includes('new.volunteer@example.org')),
    ).toBe(false);
    const theirs = installationSmtp.received.find((r) =>
      r.envelope.to.includes('someone.else@example.org'),
    );
    expect(theirs?.envelope.from).toBe('steward@installation.example.org');
    expect(
      churchSmtp.received.some((r) => r.envelope.to.includes('someone.else@example.org')),
    ).toBe(false);
  });

  it("gives the SMTP server's refusal of a wrong password, and sends nothing", async () => {
    expect(
      (await save(church.master, { ...churchServer(), password: 'not the password' })).error,
    ).toBeNull();
    const before = churchSmtp.received.length;
    const message = await settled(server, await sendTest(church.master));
    expect(message.status).toBe('failed');
    expect(message.last_error).toMatch(/535/);
    expect(message.last_error).toMatch(/Authentication credentials invalid/);
    expect(churchSmtp.received.length).toBe(before);
    // The right password again, for the tests after this one.
    expect(
      (await save(church.master, { ...churchServer(), password: CHURCH_PASSWORD })).error,
    ).toBeNull();
  });

  it('refuses private, loopback, link-local and metadata addresses and unusual ports', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { host: '10.0.0.5', port: 587 },
        'The mail server 10.0.0.5 is on a private or local network; enter a mail server on the internet',
      ],
      [
        { host: '127.0.0.1', port: 25 },
        'The mail server 127.0.0.1 is on a private or local network; enter a mail server on the internet',
      ],
      [
        { host: '169.254.169.254', port: 25 },
        'The mail server 169.254.169.254 is on a private or local network; enter a mail server on the internet',
      ],
      [
        { host: 'fd00:ec2::254', port: 587 },
        'The mail server fd00:ec2::254 is on a private or local network; enter a mail server on the internet',
      ],
      [
        { host: 'localhost', port: 587 },
        'The mail server localhost is on a private or local network; enter a mail server on the internet',
      ],
      [{ host: 'smtp.example.org', port: 8025 }, 'The port must be one of 25, 465, 587, 2525'],
      [
        { host: 'smtp://smtp.example.org', port: 587 },
        'Enter the mail server as a host name, such as smtp.example.org',
      ],
    ];
    for (const [where, message] of cases) {
      const { error } = await save(church.master, {
        ...where,
        username: '',
        password: '',
        fromAddress: 'office@grace.example.org',
      });
      expect(await refusal(error)).toEqual({ status: 400, error: message });
    }
    // Nothing changed.
    const stored = await church.master.client
      .from('organization_mail_servers')
      .select('host, port');
    expect(stored.data).toEqual([{ host: '127.0.0.1', port: churchServer().port }]);
  });

  it('refuses a private address on the way out too, whatever is stored', async () => {
    const parish = await createOrganisation(server, 'Parish Stored Directly');
    unwrap(
      await server.service().rpc('store_organization_mail_server', {
        organization_id: parish.id,
        host: '192.168.1.10',
        port: 587,
        username: null,
        password_ciphertext: null,
        from_address: 'office@parish.example.org',
      }),
      'store directly',
    );
    const message = await settled(server, await sendTest(parish.master));
    expect(message).toMatchObject({
      status: 'failed',
      last_error:
        'The mail server 192.168.1.10 is on a private or local network; enter a mail server on the internet',
    });
  });

  it('lets only active admins save, remove and test', async () => {
    const member = await addMember(server, church, 'user', 'plain-user');
    const asMember = await save(member, { ...churchServer(), password: 'x' });
    expect(await refusal(asMember.error)).toEqual({
      status: 403,
      error: "Only admins can set up the organization's e-mail",
    });
    expect((await member.client.rpc('send_test_email')).error?.message).toBe(
      "Only admins can set up the organization's e-mail",
    );
    expect((await member.client.rpc('remove_organization_mail_server')).error?.message).toBe(
      "Only admins can set up the organization's e-mail",
    );
    expect((await member.client.from('organization_mail_servers').select('host')).data).toEqual([]);
    const anonymous = await server.anon().functions.invoke('organization-mail-server', {
      body: churchServer(),
    });
    expect((anonymous.error as FunctionsHttpError).context.status).toBe(401);
    expect((await server.anon().rpc('send_test_email')).error?.code).toBe('42501');
    // The password can never be stored through the API as it is.
    const direct = await church.master.client.rpc('store_organization_mail_server', {
      organization_id: church.id,
      host: 'smtp.example.org',
      port: 587,
      username: 'x',
      password_ciphertext: 'plain',
      from_address: 'x@example.org',
    });
    expect(direct.error?.code).toBe('42501');
  });

  it('limits test e-mails to 5 an hour per organisation', async () => {
    const parish = await createOrganisation(server, 'Testing Parish');
    // No server of its own: the installation's is tested.
    for (let i = 0; i < 5; i += 1) {
      const message = await settled(server, await sendTest(parish.master));
      expect(message.status).toBe('sent');
    }
    const sixth = await parish.master.client.rpc('send_test_email');
    expect(sixth.error?.message).toBe(
      'At most 5 test e-mails can be sent in an hour. Please try again later.',
    );
    expect(sixth.status).toBe(429);
    // Another organisation still may.
    expect((await other.master.client.rpc('send_test_email')).error).toBeNull();
  });

  it('goes back to the installation server once removed', async () => {
    const parish = await createOrganisation(server, 'Leaving Parish');
    unwrap(
      await server.service().rpc('store_organization_mail_server', {
        organization_id: parish.id,
        host: '192.168.1.10',
        port: 587,
        username: null,
        password_ciphertext: null,
        from_address: 'office@parish.example.org',
      }),
      'store directly',
    );
    expect((await parish.master.client.rpc('remove_organization_mail_server')).error).toBeNull();
    const message = await settled(server, await sendTest(parish.master));
    expect(message.status).toBe('sent');
    expect(installationSmtp.received.some((r) => r.envelope.to.includes(parish.master.email))).toBe(
      true,
    );
  });
});

describe("an organisation's own sender on an installation without SMTP", () => {
  let churchSmtp: TestSmtpServer;
  let server: TestServer;

  beforeAll(async () => {
    churchSmtp = await startSmtpServer();
    server = await startTestServer({
      env: { ORGANIZATION_SMTP_ALLOWED_HOSTS: '127.0.0.1' },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await churchSmtp?.close();
  });

  it("sends the organisation's mail, while another's stays in the Outbox", async () => {
    const church = await createOrganisation(server, 'Own Sender Church');
    const other = await createOrganisation(server, 'Outbox Church');
    expect((await church.master.client.rpc('mail_delivery')).data).toBe('outbox');
    const { error } = await save(church.master, {
      host: '127.0.0.1',
      port: Number(new URL(churchSmtp.url).port),
      username: '',
      password: '',
      fromAddress: 'office@own.example.org',
    });
    expect(error).toBeNull();
    expect((await church.master.client.rpc('mail_delivery')).data).toBe('smtp');
    expect((await other.master.client.rpc('mail_delivery')).data).toBe('outbox');
    expect((await server.anon().rpc('mail_delivery')).data).toBe('outbox');

    const ours = unwrap(
      await church.master.client.rpc('invite_user_by_email', {
        email: 'own.invitee@example.org',
        role: 'user',
        full_name: 'Own Invitee',
      }),
      'invite',
    ) as { mail_id: string; mail_status: string };
    expect(ours.mail_status).toBe('queued');
    expect((await settled(server, ours.mail_id)).status).toBe('sent');
    expect(churchSmtp.received.map((r) => r.envelope.to)).toContainEqual([
      'own.invitee@example.org',
    ]);
    const theirs = unwrap(
      await other.master.client.rpc('invite_user_by_email', {
        email: 'outbox.invitee@example.org',
        role: 'user',
        full_name: 'Outbox Invitee',
      }),
      'invite',
    ) as { mail_status: string };
    expect(theirs.mail_status).toBe('outbox');
  });
});
