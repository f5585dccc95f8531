import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { documentSaved } from './document-cache.ts';
import {
  DOCUMENT_COLUMNS,
  type DocumentProperties,
  type DocumentRecord,
  type DocumentRenewalFields,
} from '../../../lib/documents.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Saves a document's category, expiry date, tags and description; returns the saved row. */
export async function updateDocumentProperties(
  id: string,
  properties: DocumentProperties & Partial<DocumentRenewalFields>,
): Promise<DocumentRecord> {
  const { data } = await succeeded(
    supabase().from('documents').update(properties).eq('id', id).select(DOCUMENT_COLUMNS).single(),
    'Update failed',
  );
  return data;
}

/** Saving the properties of a document; the saved row replaces the listed one. */
export function useUpdateDocumentProperties() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'Failed to update document' },
    mutationFn: ({
      id,
      properties,
    }: {
      id: string;
      properties: DocumentProperties & Partial<DocumentRenewalFields>;
    }) => updateDocumentProperties(id, properties),
    onSuccess: (saved) => documentSaved(queryClient, saved),
  });
}
