import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DocumentCategory } from '../../../config/document-categories.ts';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';
import { apiEndpoint } from './api-endpoint.ts';
import { documentsChanged } from './document-cache.ts';
import { saveBlobAs } from './download-document.ts';

/** One change to many selected documents: every one of them changes, or none does. */
export type BulkAction =
  | { kind: 'category'; category: DocumentCategory }
  | { kind: 'add-tags'; tags: string[] }
  | { kind: 'remove-tags'; tags: string[] }
  | { kind: 'expiry'; expiryDate: string | null }
  | { kind: 'delete' };

/**
 * Applies `action` to the documents `ids` in one request (the database's bulk functions,
 * docs/data-model.md). A delete then removes the files, as for one document: the rows first.
 */
export async function applyBulkAction(ids: string[], action: BulkAction): Promise<void> {
  const rpc = supabase();
  switch (action.kind) {
    case 'category':
      await succeeded(
        rpc.rpc('set_documents_category', { document_ids: ids, new_category: action.category }),
      );
      return;
    case 'add-tags':
      await succeeded(
        rpc.rpc('add_documents_tags', { document_ids: ids, tags_to_add: action.tags }),
      );
      return;
    case 'remove-tags':
      await succeeded(
        rpc.rpc('remove_documents_tags', { document_ids: ids, tags_to_remove: action.tags }),
      );
      return;
    case 'expiry':
      await succeeded(
        rpc.rpc('set_documents_expiry', {
          document_ids: ids,
          // Null clears the date. The generated types, as supabase gen types', never say that
          // a function's argument may be null.
          new_expiry_date: action.expiryDate as string,
        }),
      );
      return;
    case 'delete':
      // To the trash, with their files (restored from there, or deleted for ever by admins).
      await succeeded(rpc.rpc('delete_documents', { document_ids: ids }));
  }
}

/** A bulk action; every read of documents is loaded again afterwards. */
export function useBulkAction() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'Failed to update documents' },
    mutationFn: ({ ids, action }: { ids: string[]; action: BulkAction }) =>
      applyBulkAction(ids, action),
    onSettled: () => documentsChanged(queryClient),
  });
}

/**
 * Downloads the documents `ids` as one ZIP, made and streamed by the `documents-zip` function
 * (each file under its document's name).
 */
export async function downloadDocumentsZip(ids: string[]): Promise<void> {
  const { url, headers } = await apiEndpoint();
  const response = await fetch(`${url}/functions/v1/documents-zip`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ documentIds: ids }),
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error ?? 'Download failed');
  }
  saveBlobAs(await response.blob(), 'documents.zip');
}

/** Downloading the selected documents as one ZIP; a failure is "Failed to download documents". */
export const useDownloadDocumentsZip = () =>
  useMutation({
    mutationFn: downloadDocumentsZip,
    meta: { errorMessage: 'Failed to download documents' },
  });
