import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../storage/queries.ts';
import type {
  ManifestCategory,
  ManifestGroup,
  Manifest,
  ManifestDocument,
  ManifestHistoryEntry,
  ManifestPerson,
  ManifestVersion,
} from './manifest.ts';
import { MANIFEST_FORMAT, MANIFEST_VERSION } from './manifest.ts';

/** A file the export copies: the stored object's version (its bytes) and its metadata. */
export interface ExportFile {
  /** The object's name in the documents bucket. */
  filePath: string;
  /** The stored version (null when the object is gone). */
  version: string | null;
  size: number;
  mtime: number;
}

/** The manifest (with `file` still unset) and, for each document and version, its file. */
export interface ExportContents {
  manifest: Manifest;
  /** Per document (same order as manifest.documents): its file and its versions' files. */
  files: { current: ExportFile; versions: ExportFile[] }[];
}

const person = (alias: string) => `case when ${alias}.id is null then null else
  jsonb_build_object('id', ${alias}.id, 'email', ${alias}.email,
                     'name', private.display_name(${alias})) end`;

interface DocumentRow {
  id: string;
  name: string;
  category: string;
  expiry_date: string | null;
  tags: string[];
  description: string | null;
  status: string;
  size: string | number;
  content_type: string | null;
  sha256: string | null;
  created_at: string;
  upload_date: string;
  updated_at: string;
  uploaded_by: ManifestPerson | null;
  responsible: ManifestPerson | null;
  renewal_in_progress: boolean;
  renewal_note: string | null;
  file_path: string;
  version: string | null;
  stored_size: string | number | null;
  mtime: string | number;
}

interface VersionRow {
  document_id: string;
  version_number: number;
  change: string;
  name: string;
  size: string | number;
  expiry_date: string | null;
  uploaded_at: string;
  uploaded_by: ManifestPerson | null;
  replaced_at: string;
  replaced_by: ManifestPerson | null;
  file_path: string;
  version: string | null;
  stored_size: string | number | null;
  mtime: string | number;
}

interface HistoryRow extends ManifestHistoryEntry {
  id: string | number;
}

/**
 * Everything an export of `organizationId` holds, read in one repeatable-read snapshot: its
 * documents outside the trash with every property, tag, expiry date, uploader and responsible
 * member, their earlier versions (when asked), and the organisation's history, oldest first;
 * of the documents, only those the admin who asked (`requestedBy`) may view now (issue 23):
 * the documents of a restricted category the admin may not view, their versions and their
 * history stay out (all restricted ones when the admin is no longer an active member).
 */
export async function readExportContents(
  tx: Queryable,
  organizationId: string,
  options: { requestedBy: string | null; includeVersions: boolean; exportedAt: Date },
): Promise<ExportContents> {
  const organization = (
    await tx.query<{ id: string; name: string }>(
      `select id, name from public.organizations where id = $1`,
      [organizationId],
    )
  ).rows[0];
  if (!organization) throw new Error('the organisation no longer exists');
  const hidden = (
    await tx.query<{ names: string[] }>(
      `select coalesce(array_agg(c.name), '{}') as names
         from public.document_categories c
        where c.organization_id = $1 and c.restricted
          and not exists (select 1 from private.member_category_access($2) a
                           where a.id = c.id and a.can_view)`,
      [organizationId, options.requestedBy],
    )
  ).rows[0]!.names;
  const documents = (
    await tx.query<DocumentRow>(
      `select d.id, d.name, d.category, d.expiry_date::text as expiry_date, d.tags, d.description,
              d.status, d.size, o.metadata ->> 'mimetype' as content_type,
              d.content_sha256 as sha256,
              ${isoTimestamp('d.created_at')} as created_at,
              ${isoTimestamp('d.upload_date')} as upload_date,
              ${isoTimestamp('d.updated_at')} as updated_at,
              ${person('u')} as uploaded_by, ${person('r')} as responsible,
              d.renewal_in_progress, d.renewal_note, d.file_path, o.version,
              private.object_bytes(o.metadata) as stored_size,
              (extract(epoch from d.upload_date) * 1000)::bigint as mtime
       from public.documents d
       left join storage.objects o on o.bucket_id = 'documents' and o.name = d.file_path
       left join public.user_profiles u on u.id = d.uploaded_by
       left join public.user_profiles r on r.id = d.responsible_id
       where d.organization_id = $1 and d.deleted_at is null and d.category <> all ($2::text[])
       order by d.category, d.name, d.id`,
      [organizationId, hidden],
    )
  ).rows;
  // Versions are always listed; their files are in the ZIP only when asked for.
  const versions = (
    await tx.query<VersionRow>(
      `select v.document_id, v.version_number, v.change, v.name, v.size,
                  v.expiry_date::text as expiry_date,
                  ${isoTimestamp('v.uploaded_at')} as uploaded_at, ${person('u')} as uploaded_by,
                  ${isoTimestamp('v.replaced_at')} as replaced_at, ${person('r')} as replaced_by,
                  v.file_path, o.version, private.object_bytes(o.metadata) as stored_size,
                  (extract(epoch from v.uploaded_at) * 1000)::bigint as mtime
           from public.document_versions v
           join public.documents d on d.id = v.document_id and d.deleted_at is null
             and d.category <> all ($2::text[])
           left join storage.objects o on o.bucket_id = 'documents' and o.name = v.file_path
           left join public.user_profiles u on u.id = v.uploaded_by
           left join public.user_profiles r on r.id = v.replaced_by
           where v.organization_id = $1
           order by v.document_id, v.version_number`,
      [organizationId, hidden],
    )
  ).rows;
  const history = (
    await tx.query<HistoryRow>(
      `select id, ${isoTimestamp('occurred_at')} as occurred_at, actor_name as actor, kind,
              document_id, subject, details
       from public.activity_log l where organization_id = $1
         and (document_id is null or cardinality($2::text[]) = 0
              or coalesce(private.document_category(document_id) <> all ($2::text[]), true))
       order by occurred_at, id`,
      [organizationId, hidden],
    )
  ).rows;

  const versionsOf = new Map<string, VersionRow[]>();
  for (const v of versions)
    versionsOf.set(v.document_id, [...(versionsOf.get(v.document_id) ?? []), v]);
  const historyOf = new Map<string, ManifestHistoryEntry[]>();
  const organizationHistory: ManifestHistoryEntry[] = [];
  for (const { id: _id, ...entry } of history) {
    if (entry.document_id) {
      historyOf.set(entry.document_id, [...(historyOf.get(entry.document_id) ?? []), entry]);
    } else {
      organizationHistory.push(entry);
    }
  }

  // The exported documents' categories, and who may view or edit the restricted ones: roles,
  // and groups by name with their active members' addresses, so that an import elsewhere gives
  // them to the same people (finish_organization_import).
  const categories = (
    await tx.query<ManifestCategory>(
      `select c.name, c.restricted,
              case when c.restricted then coalesce((
                select jsonb_agg(case when g.id is null
                                      then jsonb_build_object('role', a.role, 'access', a.access)
                                      else jsonb_build_object('group', g.name, 'access', a.access)
                                  end order by g.name nulls first, a.role, a.access)
                  from public.category_access a
                  left join public.member_groups g on g.id = a.group_id
                 where a.category_id = c.id), '[]') end as access
         from public.document_categories c
        where c.organization_id = $1
          and exists (select 1 from public.documents d
                       where d.organization_id = c.organization_id and d.category = c.name
                         and d.deleted_at is null and d.category <> all ($2::text[]))
        order by c.position, c.name`,
      [organizationId, hidden],
    )
  ).rows.map(({ access, ...category }): ManifestCategory =>
    access ? { ...category, access } : category,
  );
  const groupNames = categories.flatMap((c) =>
    (c.access ?? []).flatMap((rule) => ('group' in rule ? [rule.group] : [])),
  );
  const groups = (
    await tx.query<ManifestGroup>(
      `select g.name,
              coalesce(array_agg(lower(p.email) order by lower(p.email))
                         filter (where p.id is not null), '{}') as members
         from public.member_groups g
         left join public.member_group_members m on m.group_id = g.id
         left join public.user_profiles p on p.id = m.user_id and p.is_active
        where g.organization_id = $1 and g.name = any ($2::text[])
        group by g.name
        order by g.name`,
      [organizationId, [...new Set(groupNames)]],
    )
  ).rows;
  const files: ExportContents['files'] = [];
  const manifestDocuments: ManifestDocument[] = documents.map((d) => {
    const documentVersions = versionsOf.get(d.id) ?? [];
    files.push({
      current: fileOf(d),
      versions: documentVersions.map(fileOf),
    });
    return {
      id: d.id,
      name: d.name,
      category: d.category,
      expiry_date: d.expiry_date,
      tags: d.tags,
      description: d.description,
      status: d.status,
      size: Number(d.size),
      content_type: d.content_type,
      sha256: d.sha256,
      created_at: d.created_at,
      upload_date: d.upload_date,
      updated_at: d.updated_at,
      uploaded_by: d.uploaded_by,
      responsible: d.responsible,
      renewal_in_progress: d.renewal_in_progress,
      renewal_note: d.renewal_note,
      file: null,
      versions: documentVersions.map((v): ManifestVersion => ({
        version_number: v.version_number,
        change: v.change,
        name: v.name,
        size: Number(v.size),
        expiry_date: v.expiry_date,
        uploaded_at: v.uploaded_at,
        uploaded_by: v.uploaded_by,
        replaced_at: v.replaced_at,
        replaced_by: v.replaced_by,
        file: null,
      })),
      history: historyOf.get(d.id) ?? [],
    };
  });
  return {
    manifest: {
      format: MANIFEST_FORMAT,
      version: MANIFEST_VERSION,
      exported_at: options.exportedAt.toISOString(),
      organization,
      include_versions: options.includeVersions,
      documents: manifestDocuments,
      history: organizationHistory,
      categories,
      groups,
    },
    files,
  };
}

function fileOf(row: {
  file_path: string;
  version: string | null;
  stored_size: string | number | null;
  mtime: string | number;
}): ExportFile {
  return {
    filePath: row.file_path,
    version: row.version,
    size: Number(row.stored_size ?? 0),
    mtime: Number(row.mtime),
  };
}
