import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Tables } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { documentKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** An earlier version of a document: its file as it was, who uploaded it, when it was replaced. */
export type DocumentVersion = Pick<
  Tables<'document_versions'>,
  | 'id'
  | 'version_number'
  | 'change'
  | 'file_path'
  | 'size'
  | 'name'
  | 'expiry_date'
  | 'uploaded_at'
  | 'replaced_at'
> & { uploader: { full_name: string | null; email: string } | null };

/** A document's earlier versions, newest first. */
export async function listDocumentVersions(documentId: string): Promise<DocumentVersion[]> {
  const { data } = await succeeded(
    supabase()
      .from('document_versions')
      .select(
        'id, version_number, change, file_path, size, name, expiry_date, uploaded_at, replaced_at, uploader:user_profiles!document_versions_uploaded_by_fkey(full_name, email)',
      )
      .eq('document_id', documentId)
      .order('version_number', { ascending: false }),
    'Failed to load the earlier versions',
  );
  return data as DocumentVersion[];
}

export const documentVersionsQueryOptions = (documentId: string) =>
  queryOptions({
    queryKey: documentKeys.versions(documentId),
    queryFn: () => listDocumentVersions(documentId),
  });

export const useDocumentVersions = (documentId: string) =>
  useQuery(documentVersionsQueryOptions(documentId));
