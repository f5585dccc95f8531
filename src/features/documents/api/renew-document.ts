import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { documentSaved } from './document-cache.ts';
import { DOCUMENT_COLUMNS, type DocumentRecord } from '../../../lib/documents.ts';
import { newDocumentObjectName } from './object-name.ts';
import { documentKeys } from './query-keys.ts';
import { removeDocumentFiles, storeDocumentFile } from './store-file.ts';

export interface Renewal {
  document: Pick<DocumentRecord, 'id' | 'organization_id'>;
  file: File;
  /** The new expiry date, `yyyy-MM-dd`. */
  expiryDate: string;
}

/**
 * Renew: the replacement file is stored under a new name, then `renew_document` makes it the
 * document's file with the new expiry date in one transaction, keeping the previous file as an
 * earlier version. If the second step fails, the new file is removed again, so nothing is left
 * half-done. Returns the renewed row.
 */
export async function renewDocument({
  document,
  file,
  expiryDate,
}: Renewal): Promise<DocumentRecord> {
  const objectName = newDocumentObjectName(document.organization_id, file.name);
  await storeDocumentFile(objectName, file);
  const { error } = await supabase().rpc('renew_document', {
    document_id: document.id,
    file_path: objectName,
    expiry_date: expiryDate,
  });
  if (error) {
    await removeDocumentFiles([objectName]).catch(() => undefined);
    throw new Error(error.message || 'Renewal failed');
  }
  const { data, error: readError } = await supabase()
    .from('documents')
    .select(DOCUMENT_COLUMNS)
    .eq('id', document.id)
    .single();
  if (readError) throw new Error(readError.message || 'Renewal failed');
  return data;
}

/** Renewing a document; the renewed row replaces the listed one, its versions are reloaded. */
export function useRenewDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'Renewal failed' },
    mutationFn: renewDocument,
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: documentKeys.versions(saved.id) });
      await documentSaved(queryClient, saved);
    },
  });
}
