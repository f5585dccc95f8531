import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { mimeTypeFor } from '../../../lib/file-kinds.ts';
import { supabase } from '../../../lib/supabase.ts';
import { documentSaved } from './document-cache.ts';
import { DOCUMENTS_BUCKET, type DocumentRecord } from '../../../lib/documents.ts';
import { fetchDocumentBlob } from './download-document.ts';
import { fetchDocument } from './fetch-document.ts';
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
 * Writes new text over the same stored object (spec §7 "Update a file's content with plain
 * text") and returns the saved row. The database records the new size on the document in the
 * same transaction as the file (migration 20261126000001), so the row is only read back.
 */
export async function saveDocumentText(
  document: Pick<DocumentRecord, 'id' | 'name' | 'file_path'>,
  text: string,
): Promise<DocumentRecord> {
  const body = new Blob([text], { type: mimeTypeFor(document.name) });
  const { error } = await supabase()
    .storage.from(DOCUMENTS_BUCKET)
    .update(document.file_path, body, { contentType: body.type, upsert: true });
  if (error) throw new Error('Failed to save document');
  try {
    return await fetchDocument(document.id);
  } catch {
    throw new Error('Failed to save document');
  }
}

/** Saving the text of a document; the saved row (with its new size) replaces the listed one. */
export function useSaveDocumentText(document: Pick<DocumentRecord, 'id' | 'name' | 'file_path'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => saveDocumentText(document, text),
    onSuccess: (saved, text) => {
      queryClient.setQueryData(documentKeys.text(document.file_path), text);
      return documentSaved(queryClient, saved);
    },
  });
}
