import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENT_COLUMNS, type DocumentRecord } from '../../../lib/documents.ts';
import { succeeded } from '../../../lib/errors.ts';

/** One document as it is now. */
export async function fetchDocument(id: string): Promise<DocumentRecord> {
  const { data } = await succeeded(
    supabase().from('documents').select(DOCUMENT_COLUMNS).eq('id', id).single(),
    'Failed to load document',
  );
  return data;
}
