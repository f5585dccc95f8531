import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DOCUMENTS_BUCKET, type DocumentRecord } from '../../../lib/documents.ts';
import { supabase } from '../../../lib/supabase.ts';
import { documentSaved } from './document-cache.ts';
import type { DocumentVersion } from './document-versions.ts';
import { fetchDocument } from './fetch-document.ts';
import { newDocumentObjectName } from './object-name.ts';
import { documentKeys } from './query-keys.ts';

/**
 * Restores an earlier version: its file is copied under a new name (the version keeps its
 * own), then `restore_document_version` makes the copy the document's file, keeping the file
 * it replaces as the newest version. If that fails, the copy is removed again.
 */
export async function restoreDocumentVersion(
  document: Pick<DocumentRecord, 'id' | 'organization_id'>,
  version: Pick<DocumentVersion, 'id' | 'name' | 'file_path'>,
): Promise<DocumentRecord> {
  const bucket = supabase().storage.from(DOCUMENTS_BUCKET);
  const copy = newDocumentObjectName(document.organization_id, version.name);
  const copied = await bucket.copy(version.file_path, copy);
  if (copied.error) throw new Error(copied.error.message || 'Restore failed');
  const { error } = await supabase().rpc('restore_document_version', {
    version_id: version.id,
    file_path: copy,
  });
  if (error) {
    await bucket.remove([copy]).catch(() => undefined);
    throw new Error(error.message || 'Restore failed');
  }
  return fetchDocument(document.id);
}

/** Restoring a version; the document's versions and every read of documents reload. */
export function useRestoreDocumentVersion(
  document: Pick<DocumentRecord, 'id' | 'organization_id'>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'Failed to restore the version' },
    mutationFn: (version: Pick<DocumentVersion, 'id' | 'name' | 'file_path'>) =>
      restoreDocumentVersion(document, version),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: documentKeys.versions(saved.id) });
      await documentSaved(queryClient, saved);
    },
  });
}
