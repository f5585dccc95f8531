import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

export interface StorageUsage {
  /** Bytes of all of the organisation's files, in every bucket. */
  usedBytes: number;
  /** The most the organisation may store (steward.toml `[storage] quota_per_organization`). */
  quotaBytes: number;
}

/** The organisation's storage against its quota (admins only; rpc `organization_storage_usage`). */
export async function getStorageUsage(): Promise<StorageUsage> {
  const { data } = await succeeded(
    supabase().rpc('organization_storage_usage'),
    'Failed to load storage usage',
  );
  const row = (Array.isArray(data) ? data[0] : data) ?? null;
  return { usedBytes: row?.used_bytes ?? 0, quotaBytes: row?.quota_bytes ?? 0 };
}

export const storageUsageQueryOptions = (organizationId: string) =>
  queryOptions({ queryKey: userKeys.storageUsage(organizationId), queryFn: getStorageUsage });

export const useStorageUsage = (organizationId: string) =>
  useQuery(storageUsageQueryOptions(organizationId));
