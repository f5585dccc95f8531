import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** What takes an organisation's room, in bytes; together they make `usedBytes`. */
export interface StorageParts {
  /** The current files of documents in use. */
  documents: number;
  /** Their earlier versions. */
  versions: number;
  /** Trashed documents with their versions, until they are deleted for ever. */
  trash: number;
  /** ZIPs uploaded to import, until the import has run. */
  imports: number;
  /** Large uploads in progress, by the size they announced. */
  uploads: number;
  /** Everything else: the logo, uploads that are no document yet. */
  other: number;
}

export interface StorageUsage {
  /** Bytes of all of the organisation's files, in every bucket. */
  usedBytes: number;
  /** The most the organisation may store (steward.toml `[storage] quota_per_organization`). */
  quotaBytes: number;
  parts: StorageParts;
  /** The latest export's ZIP, which does not count towards the quota (0 when there is none). */
  exportBytes: number;
}

/** The organisation's storage against its quota (admins only; rpc `organization_storage_usage`). */
export async function getStorageUsage(): Promise<StorageUsage> {
  const { data } = await succeeded(
    supabase().rpc('organization_storage_usage'),
    'Failed to load storage usage',
  );
  const row = (Array.isArray(data) ? data[0] : data) ?? null;
  return {
    usedBytes: row?.used_bytes ?? 0,
    quotaBytes: row?.quota_bytes ?? 0,
    parts: {
      documents: row?.documents_bytes ?? 0,
      versions: row?.versions_bytes ?? 0,
      trash: row?.trash_bytes ?? 0,
      imports: row?.imports_bytes ?? 0,
      uploads: row?.uploads_bytes ?? 0,
      other: row?.other_bytes ?? 0,
    },
    exportBytes: row?.export_bytes ?? 0,
  };
}

export const storageUsageQueryOptions = (organizationId: string) =>
  queryOptions({ queryKey: userKeys.storageUsage(organizationId), queryFn: getStorageUsage });

export const useStorageUsage = (organizationId: string) =>
  useQuery(storageUsageQueryOptions(organizationId));
