import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Tables } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

export type OrganizationExport = Tables<'organization_exports'>;
export type OrganizationImport = Tables<'organization_imports'>;

/** How often a running export or import is looked at again. */
const POLL_MS = 2000;

const exportKey = ['organization_exports', 'latest'] as const;
const importKey = ['organization_imports', 'latest'] as const;

const busy = (status: string | undefined) => status === 'queued' || status === 'running';

async function latest<T>(
  table: 'organization_exports' | 'organization_imports',
): Promise<T | null> {
  const { data } = await succeeded(
    supabase()
      .from(table)
      .select('*')
      .order('created_at', { ascending: false })
      .limit(1)
      .maybeSingle(),
    'Failed to load the status',
  );
  return data as T | null;
}

/** The organisation's latest export (admins), polled while it is being prepared. */
export const useLatestExport = () =>
  useQuery({
    queryKey: exportKey,
    queryFn: () => latest<OrganizationExport>('organization_exports'),
    refetchInterval: (query) => (busy(query.state.data?.status) ? POLL_MS : false),
  });

/** The organisation's latest import (admins), polled while it runs. */
export const useLatestImport = () =>
  useQuery({
    queryKey: importKey,
    queryFn: () => latest<OrganizationImport>('organization_imports'),
    refetchInterval: (query) => (busy(query.state.data?.status) ? POLL_MS : false),
  });

/** Starts an export of the whole organisation, with or without earlier versions. */
export function useStartExport() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'The export could not be started' },
    mutationFn: async (includeVersions: boolean) => {
      await succeeded(
        supabase().rpc('start_organization_export', { include_versions: includeVersions }),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportKey }),
  });
}

/** A short-lived link that downloads a ready export under a readable file name. */
export async function exportDownloadUrl(row: OrganizationExport): Promise<string> {
  if (!row.file_path) throw new Error('This export is no longer available');
  const day = row.finished_at?.slice(0, 10) ?? 'export';
  const { data } = await succeeded(
    supabase()
      .storage.from('exports')
      .createSignedUrl(row.file_path, 60, { download: `steward-export-${day}.zip` }),
    'The export could not be downloaded',
  );
  return data.signedUrl;
}

/** Downloads a ready export (the browser follows a short-lived link). */
export const useDownloadExport = () =>
  useMutation({
    meta: { errorMessage: 'The export could not be downloaded' },
    mutationFn: async (row: OrganizationExport) => {
      window.location.assign(await exportDownloadUrl(row));
    },
  });

/**
 * The bytes of a chosen file (bounded by Storage's file size limit), read with FileReader,
 * which every browser has, and jsdom in the app's tests too.
 */
function bytesOf(file: File): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(new Error('The file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}

/**
 * Uploads a ZIP to the organisation's import folder and starts its import; the server checks
 * the file and adds its documents in the background.
 */
export function useStartImport() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'The import could not be started' },
    mutationFn: async ({ file, organizationId }: { file: File; organizationId: string }) => {
      const name = `${organizationId}/${Date.now()}-${crypto.randomUUID()}.zip`;
      const client = supabase();
      const upload = await client.storage
        .from('imports')
        .upload(name, await bytesOf(file), { contentType: 'application/zip' });
      if (upload.error) throw new Error(upload.error.message || 'The file could not be uploaded');
      await succeeded(client.rpc('start_organization_import', { file_path: name }));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: importKey }),
  });
}
