/**
 * The iCalendar feed (RFC 5545) of one calendar address, written with ical-generator: one
 * all-day event per document with an expiry date, on that date (`DTSTART;VALUE=DATE`, `DTEND`
 * the next day), with a UID that stays the same while the document exists, an alarm at the
 * organisation's first reminder threshold, and a link back to the document in the app.
 */
import ical, { ICalAlarmType, ICalCalendarMethod } from 'ical-generator';

/** What `public.calendar_feed(token)` returns (supabase/schemas/12_calendar.sql). */
export interface FeedData {
  organization_name: string;
  scope: 'all' | 'mine';
  /** The first (largest) reminder threshold in days, or null when reminders are off. */
  alarm_days_before: number | null;
  events: FeedEvent[];
}

export interface FeedEvent {
  id: string;
  name: string;
  category: string;
  expiry_date: string;
  description: string | null;
  renewal_in_progress: boolean;
  responsible_name: string | null;
  updated_at: string;
}

/** Calendar applications are asked to read the feed again after this long. */
const REFRESH_SECONDS = 3 * 3600;
const DAY_MS = 86_400_000;

/** A `yyyy-mm-dd` date as midnight UTC; null outside years 1900–9999 (no calendar shows those). */
function calendarDay(date: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match || Number(match[1]) < 1900 || Number(match[1]) > 9999) return null;
  const day = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(day.getTime()) ? null : day;
}

/** The feed's text. `appUrl` is the app's public address, for the links back. */
export function buildFeed(data: FeedData, appUrl: string): string {
  const title =
    data.scope === 'mine'
      ? `${data.organization_name}: my expiry dates`
      : `${data.organization_name}: expiry dates`;
  const calendar = ical({
    name: title,
    description: 'Expiry dates of documents in Steward',
    prodId: { company: 'Steward', product: 'Steward', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: REFRESH_SECONDS,
  });
  for (const event of data.events) {
    const start = calendarDay(event.expiry_date);
    if (!start) continue;
    const link = `${appUrl}/documents?document=${encodeURIComponent(event.id)}`;
    const details = [
      `Category: ${event.category}`,
      event.responsible_name ? `Responsible: ${event.responsible_name}` : null,
      event.renewal_in_progress ? 'Renewal in progress.' : null,
      event.description,
      `Open in Steward: ${link}`,
    ].filter((line): line is string => Boolean(line));
    const item = calendar.createEvent({
      id: `${event.id}@steward`,
      allDay: true,
      start,
      end: new Date(start.getTime() + DAY_MS),
      stamp: new Date(event.updated_at),
      lastModified: new Date(event.updated_at),
      summary: `Expires: ${event.name}${event.renewal_in_progress ? ' (renewal in progress)' : ''}`,
      description: details.join('\n'),
      url: link,
    });
    if (data.alarm_days_before !== null) {
      item.createAlarm({
        type: ICalAlarmType.display,
        trigger: data.alarm_days_before * 86_400,
        description: `${event.name} expires in ${data.alarm_days_before} days`,
      });
    }
  }
  return calendar.toString();
}
