import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENT_COLUMNS, type DocumentProperties, type DocumentRecord } from './document.ts';

/** Saves a document's category, expiry date, tags and description; returns the saved row. */
export async function updateDocumentProperties(
  id: string,
  properties: DocumentProperties,
): Promise<DocumentRecord> {
  const { data, error } = await supabase()
    .from('documents')
    .update(properties)
    .eq('id', id)
    .select(DOCUMENT_COLUMNS)
    .single();
  if (error) throw new Error(error.message || 'Update failed');
  return data;
}
