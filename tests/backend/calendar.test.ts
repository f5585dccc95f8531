import ICAL from 'ical.js';
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
import { uploadDocument } from './document-helpers.ts';

// The calendar feed (edge function `calendar`, migration 20261127000503): a secret, revocable
// address per member, read by calendar applications without signing in, parsed here with an
// independent iCalendar parser (ical.js).

const SITE = 'https://office.example.org';

interface ParsedEvent {
  uid: string;
  summary: string;
  start: string;
  startIsDate: boolean;
  end: string;
  url: string;
  description: string;
  alarms: string[];
}

function parseFeed(text: string): { name: string; events: ParsedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((event) => {
    const start = event.getFirstPropertyValue('dtstart') as ICAL.Time;
    const end = event.getFirstPropertyValue('dtend') as ICAL.Time;
    return {
      uid: String(event.getFirstPropertyValue('uid')),
      summary: String(event.getFirstPropertyValue('summary')),
      start: start.toString(),
      startIsDate: start.isDate,
      end: end.toString(),
      url: String(event.getFirstPropertyValue('url')),
      description: String(event.getFirstPropertyValue('description')),
      alarms: event
        .getAllSubcomponents('valarm')
        .map((alarm) => String(alarm.getFirstPropertyValue('trigger'))),
    };
  });
  return { name: String(calendar.getFirstPropertyValue('x-wr-calname')), events };
}

describe('the calendar feed', () => {
  let server: TestServer;
  let church: Organisation;
  let other: Organisation;
  let member: Person;
  let colleague: Person;
  let ids: Record<string, string>;

  /** The feed as a calendar application reads it: no Authorization, no apikey. */
  const read = (path: string, method = 'GET') =>
    fetch(`${server.url}/functions/v1/calendar/${path}`, { method });

  async function newAddress(person: Person, scope: 'all' | 'mine') {
    return unwrap(
      await person.client
        .rpc('create_calendar_feed', { scope })
        .single<{ id: string; scope: string; token: string }>(),
      'create_calendar_feed',
    );
  }

  beforeAll(async () => {
    server = await startTestServer({ env: { AUTH_SITE_URL: SITE } });
    church = await createOrganisation(server, 'Calendar Church');
    other = await createOrganisation(server, 'Other Church');
    member = await addMember(server, church, 'user', 'subscriber');
    colleague = await addMember(server, church, 'user', 'colleague');
    const insurance = await uploadDocument(member, church, {
      name: 'Insurance; hall, "annex"',
      expiry_date: '2027-03-31',
    });
    const licence = await uploadDocument(colleague, church, {
      name: 'Music licence',
      expiry_date: '2026-12-01',
    });
    const minutes = await uploadDocument(member, church, { name: 'Minutes' });
    const theirs = await uploadDocument(other.master, other, {
      name: 'Not yours',
      expiry_date: '2027-01-01',
    });
    ids = { insurance: insurance.id, licence: licence.id, minutes: minutes.id, theirs: theirs.id };
  });
  afterAll(() => server?.close());

  it('lists one all-day event per document with an expiry date, with a stable UID, an alarm and a link', async () => {
    const { token } = await newAddress(member, 'all');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const response = await read(`${token}.ics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const text = await response.text();
    expect(text).toContain(`DTSTART;VALUE=DATE:20270331`);

    const feed = parseFeed(text);
    expect(feed.name).toBe('Calendar Church: expiry dates');
    expect(feed.events.map((e) => e.uid).sort()).toEqual(
      [`${ids.insurance}@steward`, `${ids.licence}@steward`].sort(),
    );
    const insurance = feed.events.find((e) => e.uid === `${ids.insurance}@steward`)!;
    expect(insurance).toMatchObject({
      summary: 'Expires: Insurance; hall, "annex"',
      start: '2027-03-31',
      startIsDate: true,
      end: '2027-04-01',
      url: `${SITE}/documents?document=${ids.insurance}`,
      alarms: ['-P30D'],
    });
    expect(insurance.description).toContain(`Open in Steward: ${SITE}/documents?document=`);

    // A renamed, renewed document keeps its UID; the calendar moves the event.
    unwrap(
      await member.client
        .from('documents')
        .update({ expiry_date: '2028-03-31', renewal_in_progress: true })
        .eq('id', ids.insurance),
      'edit',
    );
    const again = parseFeed(await (await read(token)).text());
    const moved = again.events.find((e) => e.uid === `${ids.insurance}@steward`)!;
    expect(moved).toMatchObject({
      start: '2028-03-31',
      summary: 'Expires: Insurance; hall, "annex" (renewal in progress)',
    });
    const feedRow = unwrap(
      await member.client.from('calendar_feeds').select('scope, last_fetched_at').single(),
      'own feed',
    ) as { scope: string; last_fetched_at: string | null };
    expect(feedRow.scope).toBe('all');
    expect(feedRow.last_fetched_at).not.toBeNull();
  });

  it("shows only the member's own documents when asked, and the alarm follows the reminder settings", async () => {
    const { token } = await newAddress(colleague, 'mine');
    unwrap(
      await church.master.client
        .from('reminder_settings')
        .upsert({ organization_id: church.id, days_before: [] }),
      'no reminders before expiry',
    );
    const feed = parseFeed(await (await read(token)).text());
    expect(feed.name).toBe('Calendar Church: my expiry dates');
    expect(feed.events.map((e) => e.uid)).toEqual([`${ids.licence}@steward`]);
    expect(feed.events[0]!.alarms).toEqual([]);
    unwrap(
      await church.master.client
        .from('reminder_settings')
        .update({ days_before: [14, 3] })
        .eq('organization_id', church.id),
      'reminders again',
    );
    const later = parseFeed(await (await read(token)).text());
    expect(later.events[0]!.alarms).toEqual(['-P14D']);
  });

  it('answers 404 to unknown, malformed and revoked addresses', async () => {
    const { token } = await newAddress(member, 'all');
    const refusals = [
      'f'.repeat(64),
      `${'f'.repeat(64)}.ics`,
      'abc',
      'x'.repeat(5000),
      `${token}x`,
      encodeURIComponent("' or 1=1 --"),
    ];
    for (const path of refusals) {
      const response = await read(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(await response.text()).toBe('Calendar not found\n');
    }
    expect((await read(token, 'HEAD')).status).toBe(200);

    // A new address revokes the old one.
    const renewed = await newAddress(member, 'all');
    expect((await read(token)).status).toBe(404);
    expect((await read(renewed.token)).status).toBe(200);

    unwrap(await member.client.rpc('revoke_calendar_feed'), 'revoke');
    expect((await read(renewed.token)).status).toBe(404);
    expect(unwrap(await member.client.from('calendar_feeds').select('id'), 'own feeds')).toEqual(
      [],
    );
  });

  it('ends the address with the member: after reactivation the old one stays dead and a new one is made', async () => {
    const leaver = await addMember(server, church, 'user', 'leaver');
    const { token } = await newAddress(leaver, 'all');
    expect((await read(token)).status).toBe(200);

    unwrap(
      await church.master.client.rpc('deactivate_user', { user_id: leaver.userId }),
      'deactivate',
    );
    expect((await read(token)).status).toBe(404);
    unwrap(
      await church.master.client.rpc('reactivate_user', { user_id: leaver.userId }),
      'reactivate',
    );
    expect((await read(token)).status).toBe(404);
    expect(unwrap(await leaver.client.from('calendar_feeds').select('id'), 'own feeds')).toEqual(
      [],
    );

    const renewed = await newAddress(leaver, 'all');
    expect(renewed.token).not.toBe(token);
    expect((await read(renewed.token)).status).toBe(200);
    expect((await read(token)).status).toBe(404);
  });

  it('refuses an unknown scope and people without an organisation', async () => {
    expect(
      errorMessage(await member.client.rpc('create_calendar_feed', { scope: 'everything' })),
    ).toBe('Scope must be all or mine');
    unwrap(
      await church.master.client.rpc('deactivate_user', { user_id: colleague.userId }),
      'deactivate',
    );
    expect(errorMessage(await colleague.client.rpc('create_calendar_feed', { scope: 'all' }))).toBe(
      'No organization found',
    );
  });
});
