import { supabase } from '../../../lib/supabase.ts';
import {
  DOCUMENT_COLUMNS,
  type DocumentProperties,
  type DocumentRecord,
} from '../../../lib/documents.ts';
import { succeeded } from '../../../lib/errors.ts';

export interface NewDocument extends DocumentProperties {
  organization_id: string;
  name: string;
  size: number;
  file_path: string;
}

/** Inserts the row of an uploaded file, with status Active (spec §4). */
export async function insertDocument(document: NewDocument): Promise<DocumentRecord> {
  const { data } = await succeeded(
    supabase()
      .from('documents')
      .insert({ ...document, status: 'Active' })
      .select(DOCUMENT_COLUMNS)
      .single(),
    'Upload failed',
  );
  return data;
}
