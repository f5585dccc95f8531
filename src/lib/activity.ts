import type { Json, Tables } from './database.types.ts';
import { ROLE_LABELS, type Role } from './roles.ts';

/** One entry of the history (table `activity_log`, written by the database itself). */
export type ActivityEntry = Pick<
  Tables<'activity_log'>,
  'id' | 'occurred_at' | 'actor_name' | 'kind' | 'document_id' | 'subject' | 'details'
>;

type JsonObject = { [key: string]: Json | undefined };

/** An entry's `details`: always an object (`jsonb not null default '{}'`, written by triggers). */
const detailsOf = (entry: Pick<ActivityEntry, 'details'>): JsonObject =>
  typeof entry.details === 'object' && !Array.isArray(entry.details) ? entry.details : {};

/** The columns of `ActivityEntry`, for `select`. */
export const ACTIVITY_COLUMNS = 'id, occurred_at, actor_name, kind, document_id, subject, details';

/** The kinds of entries, by their first part, as the Activity page filters them. */
export const ACTIVITY_AREAS = {
  document: 'Documents',
  member: 'Members',
  connection: 'Connections',
  settings: 'Settings',
  organization: 'Export & import',
} as const;
export type ActivityArea = keyof typeof ACTIVITY_AREAS;

const FIELD_LABELS: Record<string, string> = {
  name: 'name',
  category: 'category',
  expiry_date: 'expiry date',
  tags: 'tags',
  description: 'description',
  renewal_in_progress: 'renewal in progress',
  renewal_note: 'renewal note',
  responsible: 'responsible member',
  role: 'role',
};

const SETTINGS_AREAS: Record<string, string> = {
  organizations: 'organization name',
  integration_customizations: 'integrations',
  custom_integrations: 'custom integrations',
  integration_contacts: 'integration contacts',
  corporate_status: 'corporate status',
  oauth_configs: 'OAuth settings',
  reminder_settings: 'reminder settings',
};

/** Who acted: their name then, or Steward itself (automatic work such as emptying the trash). */
export const actorOf = (entry: Pick<ActivityEntry, 'actor_name'>) =>
  entry.actor_name ?? 'Steward (automatic)';

function valueText(field: string, value: Json | undefined): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (field === 'role' && typeof value === 'string' && value in ROLE_LABELS) {
    return ROLE_LABELS[value as Role];
  }
  return String(value);
}

/** Each change of an entry as `category: HR → Legal`. */
export function changesOf(entry: Pick<ActivityEntry, 'details'>): string[] {
  const changes = detailsOf(entry).changes;
  if (!changes || typeof changes !== 'object' || Array.isArray(changes)) return [];
  return Object.entries(changes as JsonObject).map(([field, change]) => {
    const { old, new: next } = (change ?? {}) as JsonObject;
    const label = FIELD_LABELS[field] ?? field;
    return `${label}: ${valueText(field, old)} → ${valueText(field, next)}`;
  });
}

const documentCount = (value: Json | undefined) => {
  const count = Number(value ?? 0);
  return `${count} document${count === 1 ? '' : 's'}`;
};

/**
 * What happened, in a sentence (without when; who only for a look at a document in a restricted
 * category, "Viewed by Anna Smith", which is about who it was).
 */
export function describeActivity(
  entry: Pick<ActivityEntry, 'kind' | 'subject' | 'details'> &
    Partial<Pick<ActivityEntry, 'actor_name'>>,
) {
  const details = detailsOf(entry);
  const subject = entry.subject ?? '';
  const role = valueText('role', details.role);
  const member = typeof details.member === 'string' ? ` (${details.member})` : '';
  switch (entry.kind) {
    case 'document.uploaded':
      return `Uploaded "${subject}"`;
    case 'document.updated':
      return `Edited the properties of "${subject}"`;
    case 'document.renamed':
      return `Renamed "${subject}"`;
    case 'document.content_changed':
      return `Edited the content of "${subject}"`;
    case 'document.file_replaced':
      return `Replaced the file of "${subject}"`;
    case 'document.renewed':
      return `Renewed "${subject}"`;
    case 'document.version_restored':
      return typeof details.restored_version === 'number'
        ? `Restored version ${details.restored_version} of "${subject}"`
        : `Restored an earlier version of "${subject}"`;
    case 'document.deleted':
      return `Moved "${subject}" to the trash`;
    case 'document.restored':
      return `Restored "${subject}" from the trash`;
    case 'document.purged':
      return `Deleted "${subject}" for ever`;
    case 'document.link_created':
      return `Made a share link to "${subject}"`;
    case 'document.link_opened':
      return `Opened a share link to "${subject}"`;
    case 'document.link_downloaded':
      return `Downloaded "${subject}" through a share link`;
    case 'document.link_revoked':
      return `Revoked a share link to "${subject}"`;
    case 'document.received':
      return `Sent "${subject}" through a document request`;
    case 'document.viewed':
      return `Viewed by ${actorOf({ actor_name: entry.actor_name ?? null })}`;
    case 'document.downloaded':
      return `Downloaded by ${actorOf({ actor_name: entry.actor_name ?? null })}`;
    case 'member.invited':
      return `Invited ${subject} as ${role}`;
    case 'member.reinvited':
      return `Invited ${subject} again as ${role}`;
    case 'member.invitation_cancelled':
      return `Cancelled the invitation of ${subject}`;
    case 'member.invitation_accepted':
      return `${subject} accepted the invitation as ${role}`;
    case 'member.role_changed':
      return `Changed the role of ${subject}`;
    case 'member.deactivated':
      return `Deactivated ${subject}`;
    case 'member.reactivated':
      return `Reactivated ${subject}`;
    case 'member.two_factor_removed':
      return `Removed the two-factor sign-in of ${subject}`;
    case 'connection.connected':
      return `Connected ${subject}${member}`;
    case 'connection.disconnected':
      return `Disconnected ${subject}${member}`;
    case 'connection.refresh_failed':
      return `The connection to ${subject}${member} could not be refreshed`;
    case 'settings.changed': {
      const area = String(details.area ?? '');
      return `Changed the ${SETTINGS_AREAS[area] ?? 'settings'}${subject && area !== 'organizations' ? ` of ${subject}` : ''}`;
    }
    case 'settings.logo_changed':
      return 'Changed the logo';
    case 'settings.logo_removed':
      return 'Removed the logo';
    case 'organization.export_started':
      return details.include_versions === true
        ? 'Started an export of all documents, with earlier versions'
        : 'Started an export of all documents';
    case 'organization.exported':
      return `Exported ${documentCount(details.documents)}`;
    case 'organization.import_started':
      return 'Started an import of documents';
    case 'organization.imported':
      return `Imported ${documentCount(details.documents)}`;
    case 'organization.import_failed':
      return `An import was refused: ${String(details.reason ?? '')}`;
    default:
      return entry.kind;
  }
}
