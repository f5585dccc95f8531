import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { startServer } from '../../server/server.ts';
import {
  PASSWORD,
  addMember,
  createOrganisation,
  uniqueEmail,
  unwrap,
  type Organisation,
  type Person,
} from '../security/world.ts';
import { nodeClient, startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import {
  copyPgliteTemplate,
  freshPostgresDatabase,
  postgresAdminUrl,
} from '../support/template.ts';
import { authRequest } from './auth-helpers.ts';
import { uploadDocument, type StoredDocument } from './document-helpers.ts';
import { scratchDir } from '../support/scratch.ts';

// No relay (issue 22, R8): every e-mail people cause takes its recipients from the
// installation's allowance (`[auth.rate_limit] email_sent`) and its organisation's (steward.toml
// `[mail]`, lower for a new organisation), counted in the database; past either the call is
// refused with a clear 429 and nothing is recorded. Mail goes to a real SMTP server.

const SITE = 'https://office.example.org';

interface RpcError {
  message: string;
  code: string;
}
interface RpcAnswer<T> {
  data: T | null;
  error: RpcError | null;
  status: number;
}

interface Invited {
  id: string;
  email: string;
  token: string;
  mail_id: string | null;
  mail_status: string;
}

const inviteByEmail = async (admin: Person, email: string): Promise<RpcAnswer<Invited>> =>
  (await admin.client
    .rpc('invite_user_by_email', { email, role: 'user', full_name: 'Attacker text here' })
    .single<Invited>()) as RpcAnswer<Invited>;

const sendDocuments = async (
  person: Person,
  document: StoredDocument,
  recipients: string[],
): Promise<RpcAnswer<{ id: string; status: string }>> =>
  (await person.client
    .rpc('send_documents_email', {
      recipients,
      subject: 'Our papers',
      message: 'Free text from a member',
      document_ids: [document.id],
      as_links: true,
    })
    .single<{ id: string; status: string }>()) as RpcAnswer<{ id: string; status: string }>;

const addresses = (label: string, count: number) =>
  Array.from({ length: count }, () => uniqueEmail(label));

/** Makes an organisation older than the new-organisation period (nothing in the API does). */
async function ageOrganisation(server: TestServer, organisation: Organisation): Promise<void> {
  await server.db
    .serverWork()
    .query(
      `update public.organizations set created_at = now() - interval '30 days' where id = $1`,
      [organisation.id],
    );
}

async function messagesOf(server: TestServer, organisation: Organisation): Promise<number> {
  const { rows } = await server.db
    .serverWork()
    .query<{ n: number }>(
      'select count(*)::int as n from public.outbox_messages where organization_id = $1',
      [organisation.id],
    );
  return rows[0]!.n;
}

function expectLimit(answer: RpcAnswer<unknown>, message: RegExp): void {
  expect(answer.status).toBe(429);
  expect(answer.error?.code).toBe('PT429');
  expect(answer.error?.message).toMatch(message);
}

describe('limits of what an organisation may e-mail', () => {
  let smtp: TestSmtpServer;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({
      env: {
        SMTP_URL: smtp.url,
        SMTP_ADMIN_EMAIL: 'office@grace.example.org',
        AUTH_SITE_URL: SITE,
        JOB_POLL_INTERVAL: '1h',
        AUTH_RATE_LIMIT_EMAIL_SENT: '1000',
        MAIL_PER_ORGANIZATION_PER_HOUR: '6',
        MAIL_NEW_ORGANIZATION_PER_HOUR: '3',
        MAIL_NEW_ORGANIZATION_PERIOD: '1d',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const deliveredTo = async (recipients: readonly string[]) => {
    await server.jobs.runDue();
    return smtp.received.filter(({ envelope }) =>
      envelope.to.some((to) => recipients.includes(to)),
    );
  };

  it('lets a new organisation invite by e-mail up to its lower limit, then refuses and records nothing', async () => {
    const church = await createOrganisation(server, 'Brand New Church');
    const invited = addresses('invitee', 4);
    for (const email of invited.slice(0, 3)) {
      const answer = await inviteByEmail(church.master, email);
      expect(answer.error).toBeNull();
      expect(answer.data?.mail_status).toBe('queued');
    }
    const before = await messagesOf(server, church);
    const refused = await inviteByEmail(church.master, invited[3]!);
    expectLimit(
      refused,
      /^Your organization has reached its limit of 3 e-mail recipients an hour \(a new organization's limit, for its first days\)\. Please try again in \d+ minutes?\.$/,
    );
    expect(await messagesOf(server, church)).toBe(before);
    const { rows } = await server.db
      .serverWork()
      .query('select 1 from public.user_invitations where email = $1', [invited[3]]);
    expect(rows).toEqual([]);

    // The link alone is still there to be shared by hand.
    const link = await church.master.client
      .rpc('invite_user', { email: invited[3], role: 'user', full_name: null })
      .single<{ token: string }>();
    expect(link.error).toBeNull();

    expect((await deliveredTo(invited)).map(({ envelope }) => envelope.to[0]).sort()).toEqual(
      invited.slice(0, 3).sort(),
    );
  });

  it('holds when invitations arrive at once', async () => {
    const church = await createOrganisation(server, 'Hasty Church');
    const answers = await Promise.all(
      addresses('rush', 8).map((email) => inviteByEmail(church.master, email)),
    );
    expect(answers.filter((answer) => answer.error === null)).toHaveLength(3);
    expect(answers.filter((answer) => answer.error?.code === 'PT429')).toHaveLength(5);
    expect(await messagesOf(server, church)).toBe(3);
  });

  it("counts every recipient of a member's document e-mail against the organisation's limit", async () => {
    const church = await createOrganisation(server, 'Established Church');
    await ageOrganisation(server, church);
    const member = await addMember(server, church, 'user', 'sender');
    const document = await uploadDocument(member, church, { name: 'Minutes.txt' });

    expectLimit(
      await sendDocuments(member, document, addresses('list', 50)),
      /^Your organization may e-mail at most 6 recipients an hour\. Please choose fewer recipients\.$/,
    );
    const first = addresses('reader', 4);
    expect((await sendDocuments(member, document, first)).error).toBeNull();
    const before = await messagesOf(server, church);
    expectLimit(
      await sendDocuments(member, document, addresses('reader', 3)),
      /^Your organization has reached its limit of 6 e-mail recipients an hour\. Please try again in \d+ minutes?\.$/,
    );
    expect(await messagesOf(server, church)).toBe(before);
    const last = addresses('reader', 2);
    expect((await sendDocuments(member, document, last)).error).toBeNull();
    const delivered = await deliveredTo([...first, ...last]);
    expect(delivered.map(({ envelope }) => envelope.to.length).sort()).toEqual([2, 4]);

    // Another organisation has an allowance of its own.
    const other = await createOrganisation(server, 'Neighbour Church');
    expect((await inviteByEmail(other.master, uniqueEmail('neighbour'))).error).toBeNull();
  });

  it("counts a failed message sent again and an admin's reset link, and refuses them past the limit", async () => {
    const church = await createOrganisation(server, 'Retry Church');
    await ageOrganisation(server, church);
    const member = await addMember(server, church, 'user', 'retrier');
    const document = await uploadDocument(member, church, { name: 'Rota.txt' });
    smtp.answer = { code: 550, message: 'No such user here' };
    const failed = unwrap(await sendDocuments(member, document, addresses('bounce', 3)), 'send');
    await server.jobs.runDue();
    smtp.answer = 'accept';
    expect((await sendDocuments(member, document, addresses('reader', 3))).error).toBeNull();

    const retried = (await church.master.client.rpc('retry_outbox_message', {
      message_id: failed.id,
    })) as RpcAnswer<unknown>;
    expectLimit(retried, /^Your organization has reached its limit of 6 e-mail recipients/);
    const { rows } = await server.db
      .serverWork()
      .query<{ status: string }>('select status from public.outbox_messages where id = $1', [
        failed.id,
      ]);
    expect(rows[0]?.status).toBe('failed');

    // A reset link an admin sends a member counts too.
    const reset = (await church.master.client.rpc('send_password_reset', {
      user_id: member.userId,
    })) as RpcAnswer<unknown>;
    expectLimit(reset, /^Your organization has reached its limit of 6 e-mail recipients/);
  });

  it('does not e-mail an invitation to the same address again within the hour, but gives a new link', async () => {
    const church = await createOrganisation(server, 'Patient Church');
    const email = uniqueEmail('again');
    const first = unwrap(await inviteByEmail(church.master, email), 'first invitation');
    expect(first.mail_status).toBe('queued');
    const again = unwrap(await inviteByEmail(church.master, email), 'second invitation');
    expect(again).toMatchObject({ mail_status: 'recently_sent', mail_id: first.mail_id });
    expect(again.token).not.toBe(first.token);
    const lookup = (token: string) => server.anon().rpc('get_invitation', { token });
    expect((await lookup(again.token)).error).toBeNull();
    expect((await lookup(first.token)).data).toBeNull();
    expect(await deliveredTo([email])).toHaveLength(1);

    // An hour later it is e-mailed again.
    await server.db
      .serverWork()
      .query(
        `update public.outbox_messages set created_at = now() - interval '61 minutes' where id = $1`,
        [first.mail_id],
      );
    const later = unwrap(await inviteByEmail(church.master, email), 'third invitation');
    expect(later.mail_status).toBe('queued');
    expect(await deliveredTo([email])).toHaveLength(2);
  });
});

describe("the installation's limit, kept in the database", () => {
  let smtp: TestSmtpServer;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /**
   * A server on a database that outlives it: with TEST_DATABASE_URL a PostgreSQL database that
   * a second server opens beside the first (as several processes share one), otherwise an
   * embedded data directory that the second opens after the first has stopped (one process
   * holds it at a time). An allowance kept in one process's memory would start afresh there.
   */
  async function persistedDatabase() {
    const dataDir = await scratchDir('steward-mail-limits-');
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const adminUrl = postgresAdminUrl();
    if (adminUrl) {
      const fresh = await freshPostgresDatabase(adminUrl);
      cleanups.push(fresh.drop);
      return { dataDir, shared: true, open: (): Promise<Database> => openPostgres(fresh.url) };
    }
    const dbDir = path.join(dataDir, 'db');
    await copyPgliteTemplate('app', dbDir);
    return {
      dataDir,
      shared: false,
      open: (): Promise<Database> => openPglite({ dataDir: dbDir }),
    };
  }

  async function serve(dataDir: string, db: Database): Promise<TestServer> {
    const config = {
      ...readConfig({
        DATA_DIR: dataDir,
        AUTH_BCRYPT_COST: '4',
        AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000000',
        AUTH_EMAIL_ENABLE_CONFIRMATIONS: 'false',
        SMTP_URL: smtp.url,
        SMTP_ADMIN_EMAIL: 'office@grace.example.org',
        AUTH_SITE_URL: SITE,
        JOB_POLL_INTERVAL: '1h',
        AUTH_RATE_LIMIT_EMAIL_SENT: '4',
        MAIL_PER_ORGANIZATION_PER_HOUR: '100',
        MAIL_NEW_ORGANIZATION_PER_HOUR: '100',
      }),
      port: 0,
      host: '127.0.0.1',
      logRequests: false,
    };
    const running = await startServer({ config, db, skipMigrations: true });
    return {
      ...running,
      dataDir,
      anon: () => nodeClient(running.url, running.keys.anonKey),
      service: () => nodeClient(running.url, running.keys.serviceRoleKey),
    };
  }

  it('counts every organisation and the auth service together, alike for unknown addresses, on every server of the database', async () => {
    const database = await persistedDatabase();
    const first = await serve(database.dataDir, await database.open());
    let firstOpen = true;
    cleanups.push(async () => {
      if (firstOpen) await first.close();
    });
    const a = await createOrganisation(first, 'Church A');
    const b = await createOrganisation(first, 'Church B');
    const member = await addMember(first, a, 'user', 'member');
    expect((await inviteByEmail(a.master, uniqueEmail('a'))).error).toBeNull();
    expect((await inviteByEmail(b.master, uniqueEmail('b'))).error).toBeNull();
    expect((await authRequest(first, '/recover', { body: { email: member.email } })).status).toBe(
      200,
    );

    if (!database.shared) {
      await first.close();
      firstOpen = false;
    }
    const second = await serve(database.dataDir, await database.open());
    cleanups.push(() => second.close());
    const aMaster: Person = { ...a.master, client: second.anon() };
    const signedIn = await aMaster.client.auth.signInWithPassword({
      email: a.master.email,
      password: PASSWORD,
    });
    expect(signedIn.error).toBeNull();

    // The fourth and last recipient of the hour, then nothing more for anyone.
    expect((await inviteByEmail(aMaster, uniqueEmail('a'))).error).toBeNull();
    expectLimit(
      await inviteByEmail(aMaster, uniqueEmail('a')),
      /^Too many e-mails are being sent from this installation\. Please try again in \d+ minutes?\.$/,
    );
    const overLimit = { code: 'over_email_send_rate_limit', message: 'email rate limit exceeded' };
    // A member no e-mail went to this hour, and an unknown address (the member who asked for a
    // reset above meets their own minute first, counted on every server of PostgreSQL).
    for (const email of [a.master.email, uniqueEmail('nobody')]) {
      const recover = await authRequest(second, '/recover', { body: { email } });
      expect(recover.status).toBe(429);
      expect(recover.body).toEqual(overLimit);
    }

    // A member's e-mail change is refused as GoTrue refuses it, and nothing changes.
    const session = await second.anon().auth.signInWithPassword({
      email: member.email,
      password: PASSWORD,
    });
    const change = await authRequest(second, '/user', {
      method: 'PUT',
      token: session.data.session!.access_token,
      body: { email: uniqueEmail('new-address') },
    });
    expect(change.status).toBe(429);
    expect(change.body).toEqual(overLimit);
    const { rows } = await second.db
      .serverWork()
      .query<{ email_change: string | null }>('select email_change from auth.users where id = $1', [
        member.userId,
      ]);
    expect(rows[0]?.email_change ?? '').toBe('');
    // Two servers of one database: slow on a busy machine.
  }, 120_000);
});
