import { mimeTypeFor } from '../../../lib/file-kinds.ts';
import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENTS_BUCKET } from '../../../lib/documents.ts';

/** Stores a new file's bytes in the `documents` bucket under `objectName`; never overwrites. */
export async function storeDocumentFile(objectName: string, file: File): Promise<void> {
  const { error } = await supabase()
    .storage.from(DOCUMENTS_BUCKET)
    .upload(objectName, file, {
      upsert: false,
      contentType: file.type || mimeTypeFor(file.name),
    });
  if (error) throw new Error(error.message || 'Upload failed');
}

/** Removes stored files by object name. */
export async function removeDocumentFiles(objectNames: string[]): Promise<void> {
  const { error } = await supabase().storage.from(DOCUMENTS_BUCKET).remove(objectNames);
  if (error) throw new Error(error.message || 'Delete failed');
}
