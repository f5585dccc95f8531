import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { mimeTypeFor } from '../../../lib/file-kinds.ts';
import { supabase } from '../../../lib/supabase.ts';
import { documentSaved } from './document-cache.ts';
import { DOCUMENTS_BUCKET, type DocumentRecord } from '../../../lib/documents.ts';
import { fetchDocumentBlob } from './download-document.ts';
import { fetchDocument } from './fetch-document.ts';
import { newDocumentObjectName } from './object-name.ts';
import { documentKeys } from './query-keys.ts';

/** The text of a text-based document. */
export async function loadDocumentText(filePath: string): Promise<string> {
  try {
    const blob = await fetchDocumentBlob(filePath);
    return await blob.text();
  } catch {
    throw new Error('Failed to load document content');
  }
}

export const documentTextQueryOptions = (filePath: string) =>
  queryOptions({
    queryKey: documentKeys.text(filePath),
    queryFn: () => loadDocumentText(filePath),
    // The editor works on what it loaded; a refresh under the user's hands would only confuse.
    refetchOnWindowFocus: false,
  });

/** The stored text of a text-based document, loaded when `enabled`. */
export function useDocumentText(filePath: string, enabled: boolean) {
  return useQuery({ ...documentTextQueryOptions(filePath), enabled });
}

/**
 * Saves new text as a new version of the document: the text is stored under a new name, then
 * `replace_document_file` makes it the document's file in one transaction, keeping the
 * previous file as an earlier version. If that fails, the new object is removed again, so
 * nothing is left half-done. Returns the saved row (its new file and size).
 */
export async function saveDocumentText(
  document: Pick<DocumentRecord, 'id' | 'name' | 'organization_id'>,
  text: string,
): Promise<DocumentRecord> {
  const body = new Blob([text], { type: mimeTypeFor(document.name) });
  const objectName = newDocumentObjectName(document.organization_id, document.name);
  const bucket = supabase().storage.from(DOCUMENTS_BUCKET);
  const { error } = await bucket.upload(objectName, body, {
    contentType: body.type,
    upsert: false,
  });
  if (error) throw new Error('Failed to save document');
  const replaced = await supabase().rpc('replace_document_file', {
    document_id: document.id,
    file_path: objectName,
    change: 'content_edit',
  });
  if (replaced.error) {
    await bucket.remove([objectName]).catch(() => undefined);
    throw new Error('Failed to save document');
  }
  try {
    return await fetchDocument(document.id);
  } catch {
    throw new Error('Failed to save document');
  }
}

/** Saving the text of a document; the saved row (with its new size) replaces the listed one. */
export function useSaveDocumentText(
  document: Pick<DocumentRecord, 'id' | 'name' | 'organization_id'>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: () => 'Failed to save document' },
    mutationFn: (text: string) => saveDocumentText(document, text),
    onSuccess: async (saved, text) => {
      queryClient.setQueryData(documentKeys.text(saved.file_path), text);
      await queryClient.invalidateQueries({ queryKey: documentKeys.versions(saved.id) });
      return documentSaved(queryClient, saved);
    },
  });
}
