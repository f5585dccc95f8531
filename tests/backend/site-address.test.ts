import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';
import { siteUrlWarning } from '../../server/site-url.ts';
import { createOrganisation, unwrap, type Organisation } from '../security/world.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { uploadDocument } from './document-helpers.ts';

// Links to the address people use (issue 24, item 4): without `[auth] site_url` the links in
// e-mails and calendar feeds lead to the address the server listens on, not to a port it does
// not use.

describe('links without a configured site address', () => {
  let smtp: TestSmtpServer;
  let server: TestServer;
  let church: Organisation;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    // No AUTH_SITE_URL, and the project's config.toml sets none.
    server = await startTestServer({
      env: { SMTP_URL: smtp.url, SMTP_ADMIN_EMAIL: 'office@grace.example.org' },
    });
    church = await createOrganisation(server, 'Address Church');
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('has no site address of its own: the server listens on a port chosen at start', () => {
    expect(server.config.auth.siteUrl).toBeUndefined();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toBe('http://127.0.0.1:8080');
  });

  it("links a document e-mail's files and the app to the server's own address", async () => {
    const document = await uploadDocument(church.master, church, {
      name: 'Lease.txt',
      content: 'The lease.',
    });
    unwrap(
      await church.master.client.rpc('send_documents_email', {
        recipients: ['landlord@example.org'],
        subject: 'The lease',
        message: '',
        document_ids: [document.id],
        as_links: true,
      }),
      'send_documents_email',
    );
    const before = smtp.received.length;
    await server.jobs.runDue();
    expect(smtp.received.length).toBe(before + 1);
    const text = smtp.received.at(-1)!.mail.text ?? '';
    const links = [...text.matchAll(/https?:\/\/[^\s>)]+/g)].map((match) => match[0]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.startsWith(`${server.url}/`)).toBe(true);
    // The document's link opens from there.
    const fileLink = links.find((link) => link.includes('/storage/v1/'))!;
    const response = await fetch(fileLink);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('The lease.');
  });

  it("links the calendar feed's events to the server's own address", async () => {
    const document = await uploadDocument(church.master, church, {
      name: 'Insurance',
      expiry_date: '2027-05-01',
    });
    const { token } = unwrap(
      await church.master.client
        .rpc('create_calendar_feed', { scope: 'all' })
        .single<{ token: string }>(),
      'create_calendar_feed',
    );
    const feed = await (await fetch(`${server.url}/functions/v1/calendar/${token}.ics`)).text();
    // iCalendar folds long lines; unfold before reading.
    const unfolded = feed.replace(/\r\n[ \t]/g, '');
    expect(unfolded).toContain(`URL;VALUE=URI:${server.url}/documents?document=${document.id}`);
    expect(unfolded).not.toContain('localhost:8080');
  });
});

describe('the start-up warning about the site address', () => {
  const config = (env: Record<string, string>) => readConfig({ PORT: '8080', ...env });

  it('warns when the server listens beyond this machine and no site address is set', () => {
    const warning = siteUrlWarning(config({ HOST: '0.0.0.0' }), 'http://localhost:8080');
    expect(warning).toContain('[auth] site_url');
    expect(warning).toContain('AUTH_SITE_URL');
    expect(warning).toContain('http://localhost:8080');
    expect(siteUrlWarning(config({ HOST: '192.168.1.20' }), 'http://192.168.1.20:8080')).not.toBe(
      null,
    );
  });

  it('is quiet on this machine alone, or with a site address', () => {
    expect(siteUrlWarning(config({ HOST: '127.0.0.1' }), 'http://127.0.0.1:8080')).toBeNull();
    expect(siteUrlWarning(config({ HOST: 'localhost' }), 'http://localhost:8080')).toBeNull();
    expect(siteUrlWarning(config({ HOST: '::1' }), 'http://[::1]:8080')).toBeNull();
    expect(
      siteUrlWarning(
        config({ HOST: '0.0.0.0', AUTH_SITE_URL: 'https://docs.grace.example.org/' }),
        'http://localhost:8080',
      ),
    ).toBeNull();
  });

  it('refuses a site address that is not a web address', () => {
    expect(() => config({ AUTH_SITE_URL: 'docs.grace.example.org' })).toThrow(/site_url/);
    expect(config({ AUTH_SITE_URL: 'https://docs.grace.example.org/' }).auth.siteUrl).toBe(
      'https://docs.grace.example.org',
    );
  });
});
