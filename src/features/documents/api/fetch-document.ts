import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENT_COLUMNS, type DocumentRecord } from '../../../lib/documents.ts';
import { succeeded } from '../../../lib/errors.ts';
import { documentKeys } from './query-keys.ts';

/** One document as it is now. */
export async function fetchDocument(id: string): Promise<DocumentRecord> {
  const { data } = await succeeded(
    supabase().from('documents').select(DOCUMENT_COLUMNS).eq('id', id).single(),
    'Failed to load document',
  );
  return data;
}

export const documentQueryOptions = (id: string) =>
  queryOptions({ queryKey: documentKeys.one(id), queryFn: () => fetchDocument(id) });

/** One document by id, read while `id` is given. */
export const useDocument = (id: string | null) =>
  useQuery({ ...documentQueryOptions(id ?? ''), enabled: id !== null });
