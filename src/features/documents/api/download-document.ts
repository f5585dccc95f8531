import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENTS_BUCKET, type DocumentRecord } from '../../../lib/documents.ts';

/** The stored bytes of a document. Throws with the server's message, or `Download failed`. */
export async function fetchDocumentBlob(filePath: string): Promise<Blob> {
  const { data, error } = await supabase().storage.from(DOCUMENTS_BUCKET).download(filePath);
  if (error || !data) throw new Error(error?.message || 'Download failed');
  return data;
}

/** Hands a blob to the browser as a file download named `fileName`. */
export function saveBlobAs(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next tick: the browser has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** What a download needs of a document. */
export type DownloadableDocument = Pick<DocumentRecord, 'name' | 'file_path'>;

/**
 * Downloads a document under its own name (spec §7 "Download by path"). Used by the documents
 * table, the preview modal, the edit-content modal and the category document lists. Throws an
 * `Error` whose message the caller shows as `Failed to download document: {message}`.
 */
export async function downloadDocument(document: DownloadableDocument): Promise<void> {
  const blob = await fetchDocumentBlob(document.file_path);
  saveBlobAs(blob, document.name);
}
