/**
 * The manifest of an organisation export (`manifest.json`, and `manifest.csv` for people and
 * spreadsheets): what Steward writes on export and what it accepts on import.
 */

/** The `format` of a Steward export's manifest.json; anything else is not one. */
export const MANIFEST_FORMAT = 'steward-organization-export';
export const MANIFEST_VERSION = 1;

/** A category's name as `document_categories` holds it: trimmed, 1 to 100 characters. */
function isCategoryName(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length >= 1 && value.length <= 100 && !/^\s|\s$/.test(value)
  );
}

export interface ManifestPerson {
  id: string;
  email: string;
  name: string;
}

export interface ManifestHistoryEntry {
  occurred_at: string;
  actor: string | null;
  kind: string;
  document_id: string | null;
  subject: string | null;
  details: unknown;
}

export interface ManifestVersion {
  version_number: number;
  change: string;
  name: string;
  size: number;
  expiry_date: string | null;
  uploaded_at: string;
  uploaded_by: ManifestPerson | null;
  replaced_at: string;
  replaced_by: ManifestPerson | null;
  /** The file in the ZIP; null when versions were not included or the file is missing. */
  file: string | null;
}

export interface ManifestDocument {
  id: string;
  name: string;
  category: string;
  expiry_date: string | null;
  tags: string[];
  description: string | null;
  status: string;
  size: number;
  content_type: string | null;
  sha256: string | null;
  created_at: string;
  upload_date: string;
  updated_at: string;
  uploaded_by: ManifestPerson | null;
  responsible: ManifestPerson | null;
  renewal_in_progress: boolean;
  renewal_note: string | null;
  /** The current file in the ZIP; null when the stored file is missing. */
  file: string | null;
  versions: ManifestVersion[];
  history: ManifestHistoryEntry[];
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  version: typeof MANIFEST_VERSION;
  exported_at: string;
  organization: { id: string; name: string };
  include_versions: boolean;
  documents: ManifestDocument[];
  /** The organisation's history not about one document (members, settings…), oldest first;
   * each document's own entries are in its `history`. */
  history: ManifestHistoryEntry[];
  /** The categories of the documents exported, in the organisation's order, whether each is
   * restricted and, when it is, who may view or edit it (issue 23). Absent from exports made
   * before; `access` absent from those made before it was carried. */
  categories?: ManifestCategory[];
  /** The groups the categories' rules name, each with its active members' e-mail addresses. */
  groups?: ManifestGroup[];
}

/** Who may view or edit a restricted category: a role, or a group by its name. */
export type ManifestAccessRule =
  { role: ManifestRole; access: 'view' | 'edit' } | { group: string; access: 'view' | 'edit' };
type ManifestRole = 'viewer' | 'user' | 'admin' | 'master_admin';

export interface ManifestCategory {
  name: string;
  restricted: boolean;
  access?: ManifestAccessRule[];
}

export interface ManifestGroup {
  name: string;
  members: string[];
}

/** The rules of the restricted categories an import brings, for `finish_organization_import`. */
export interface ImportAccess {
  categories: { name: string; rules: ManifestAccessRule[] }[];
  groups: ManifestGroup[];
}

const CSV_COLUMNS = [
  'id',
  'name',
  'category',
  'expiry_date',
  'tags',
  'description',
  'status',
  'size',
  'content_type',
  'sha256',
  'created_at',
  'upload_date',
  'updated_at',
  'uploaded_by',
  'responsible_email',
  'responsible_name',
  'renewal_in_progress',
  'renewal_note',
  'file',
  'versions',
  'history',
] as const;

/**
 * One CSV cell: quoted when needed, and a leading `=`, `+`, `-`, `@`, tab or carriage return
 * escaped with `'` so that a spreadsheet never runs a document's name as a formula.
 */
function csvCell(value: string | number | boolean | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** manifest.csv: one row per document, its history as one line per entry. */
export function manifestCsv(manifest: Manifest): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const d of manifest.documents) {
    const row: Record<(typeof CSV_COLUMNS)[number], string | number | boolean | null> = {
      id: d.id,
      name: d.name,
      category: d.category,
      expiry_date: d.expiry_date,
      tags: d.tags.join('; '),
      description: d.description,
      status: d.status,
      size: d.size,
      content_type: d.content_type,
      sha256: d.sha256,
      created_at: d.created_at,
      upload_date: d.upload_date,
      updated_at: d.updated_at,
      uploaded_by: d.uploaded_by?.email ?? null,
      responsible_email: d.responsible?.email ?? null,
      responsible_name: d.responsible?.name ?? null,
      renewal_in_progress: d.renewal_in_progress,
      renewal_note: d.renewal_note,
      file: d.file,
      versions: d.versions.length,
      history: d.history
        .map((h) => `${h.occurred_at} ${h.kind}${h.actor ? ` by ${h.actor}` : ''}`)
        .join('\n'),
    };
    lines.push(CSV_COLUMNS.map((column) => csvCell(row[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A document of an import, as checked from a manifest. */
export interface ImportDocument {
  name: string;
  category: string;
  expiry_date: string | null;
  tags: string[];
  description: string | null;
  content_type: string;
  responsible_email: string | null;
  /** The entry of the ZIP that holds its file. */
  file: string;
  /** Its category was restricted where it was exported (a category the organisation imported
   * into lacks is then added restricted: only its master admins see it until they grant it). */
  category_restricted: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The documents of a manifest.json, checked: returns the reason in words when the file is not a
 * Steward export, lists more than `maxDocuments`, or a document in it is not one Steward could
 * have written.
 */
export function importDocuments(
  manifest: unknown,
  hasEntry: (name: string) => boolean,
  maxDocuments: number,
): { documents: ImportDocument[]; access: ImportAccess } | { refused: string } {
  const notOurs = {
    refused: 'This ZIP is not a Steward export (its manifest.json is missing or invalid)',
  };
  if (!isObject(manifest) || manifest.format !== MANIFEST_FORMAT) return notOurs;
  if (manifest.version !== MANIFEST_VERSION || !Array.isArray(manifest.documents)) return notOurs;
  if (manifest.documents.length > maxDocuments) {
    return { refused: `The manifest.json of this ZIP lists more than ${maxDocuments} documents` };
  }
  const access = importAccess(manifest.categories, manifest.groups);
  const restricted = new Set(access.categories.map((c) => c.name));
  const documents: ImportDocument[] = [];
  for (const [index, item] of manifest.documents.entries()) {
    const bad = (what: string) => ({
      refused: `Document ${index + 1} of manifest.json is invalid: ${what}`,
    });
    if (!isObject(item)) return bad('not an object');
    const { name, category, expiry_date, tags, description, file, content_type, responsible } =
      item;
    if (typeof name !== 'string' || name.trim().length < 1 || name.length > 500) return bad('name');
    if (!isCategoryName(category)) return bad('category');
    if (
      expiry_date !== null &&
      (typeof expiry_date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(expiry_date))
    )
      return bad('expiry date');
    if (
      !Array.isArray(tags) ||
      tags.length > 100 ||
      !tags.every((tag): tag is string => typeof tag === 'string')
    )
      return bad('tags');
    if (description !== null && (typeof description !== 'string' || description.length > 10_000))
      return bad('description');
    // A document whose file was missing at export has no file to restore.
    if (file === null) continue;
    if (typeof file !== 'string' || !hasEntry(file)) return bad('its file is not in the ZIP');
    const responsibleEmail =
      isObject(responsible) && typeof responsible.email === 'string' ? responsible.email : null;
    documents.push({
      name,
      category,
      category_restricted: restricted.has(category),
      expiry_date,
      tags,
      description,
      content_type:
        typeof content_type === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(content_type)
          ? content_type
          : 'application/octet-stream',
      responsible_email: responsibleEmail,
      file,
    });
  }
  return { documents, access };
}

const ROLES: readonly string[] = ['viewer', 'user', 'admin', 'master_admin'];

/**
 * The restricted categories of a manifest with their rules, and the groups those rules name.
 * Whatever is not well formed is left out (the category then comes in restricted with fewer
 * rules, seen by fewer people, never by more); groups' members are e-mail addresses, matched to
 * the importing organisation's active members by the database.
 */
function importAccess(categories: unknown, groups: unknown): ImportAccess {
  const restricted = (Array.isArray(categories) ? categories : []).filter(
    (c): c is Record<string, unknown> & { name: string } =>
      isObject(c) && c.restricted === true && isCategoryName(c.name),
  );
  const rulesOf = (category: Record<string, unknown>): ManifestAccessRule[] =>
    (Array.isArray(category.access) ? category.access : []).flatMap(
      (rule): ManifestAccessRule[] => {
        if (!isObject(rule) || (rule.access !== 'view' && rule.access !== 'edit')) return [];
        if (typeof rule.role === 'string' && ROLES.includes(rule.role)) {
          return [{ role: rule.role as ManifestRole, access: rule.access }];
        }
        if (isCategoryName(rule.group)) return [{ group: rule.group, access: rule.access }];
        return [];
      },
    );
  const access = restricted.map((category) => ({ name: category.name, rules: rulesOf(category) }));
  const named = new Set(
    access.flatMap((c) => c.rules.flatMap((r) => ('group' in r ? [r.group] : []))),
  );
  return {
    categories: access,
    groups: (Array.isArray(groups) ? groups : []).flatMap((group): ManifestGroup[] =>
      isObject(group) && typeof group.name === 'string' && named.has(group.name)
        ? [
            {
              name: group.name,
              members: (Array.isArray(group.members) ? group.members : []).filter(
                (email): email is string => typeof email === 'string' && email.length <= 320,
              ),
            },
          ]
        : [],
    ),
  };
}
