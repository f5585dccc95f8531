import { mimeTypeFor } from '../../../lib/file-kinds.ts';
import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENTS_BUCKET, type DocumentRecord } from './document.ts';
import { fetchDocumentBlob } from './download-document.ts';
import { fetchDocument } from './list-documents.ts';

/** The text of a text-based document. */
export async function loadDocumentText(filePath: string): Promise<string> {
  try {
    const blob = await fetchDocumentBlob(filePath);
    return await blob.text();
  } catch {
    throw new Error('Failed to load document content');
  }
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
