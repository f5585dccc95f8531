import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENT_COLUMNS, type DocumentRecord } from '../../../lib/documents.ts';

/** One document as it is now. */
export async function fetchDocument(id: string): Promise<DocumentRecord> {
  const { data, error } = await supabase()
    .from('documents')
    .select(DOCUMENT_COLUMNS)
    .eq('id', id)
    .single();
  if (error) throw new Error(error.message || 'Failed to load document');
  return data;
}
