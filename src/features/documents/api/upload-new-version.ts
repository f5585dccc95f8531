import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENT_COLUMNS, type DocumentRecord } from '../../../lib/documents.ts';
import { succeeded } from '../../../lib/errors.ts';
import { documentSaved } from './document-cache.ts';
import { newDocumentObjectName } from './object-name.ts';
import { documentKeys } from './query-keys.ts';
import { removeDocumentFiles, storeDocumentFile, type StoreFileOptions } from './store-file.ts';

export interface NewVersion {
  document: Pick<DocumentRecord, 'id' | 'organization_id'>;
  file: File;
  /** The file's SHA-256, where it was computed already (duplicate checks). */
  sha256?: string | null;
  onProgress?: StoreFileOptions['onProgress'];
}

/**
 * A new version of a document's file (issue 25): the file is stored under a new name, then
 * `replace_document_file` (change `file_replacement`) makes it the document's file in one
 * transaction, keeping the current one as its newest earlier version, as Renew does, but
 * without touching the expiry date. If the second step fails, the new file is removed again.
 * Returns the updated row.
 */
export async function uploadNewVersion({
  document,
  file,
  sha256,
  onProgress,
}: NewVersion): Promise<DocumentRecord> {
  if (file.size === 0) throw new Error('The file is empty');
  const objectName = newDocumentObjectName(document.organization_id, file.name);
  await storeDocumentFile(objectName, file, { sha256, onProgress });
  const { error } = await supabase().rpc('replace_document_file', {
    document_id: document.id,
    file_path: objectName,
    change: 'file_replacement',
  });
  if (error) {
    await removeDocumentFiles([objectName]).catch(() => undefined);
    throw new Error(error.message || 'Upload failed');
  }
  const { data } = await succeeded(
    supabase().from('documents').select(DOCUMENT_COLUMNS).eq('id', document.id).single(),
    'Upload failed',
  );
  return data;
}

/** Uploading a new version; the updated row replaces the listed one, its versions are reloaded. */
export function useUploadNewVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'Upload failed' },
    mutationFn: uploadNewVersion,
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: documentKeys.versions(saved.id) });
      await documentSaved(queryClient, saved);
    },
  });
}
