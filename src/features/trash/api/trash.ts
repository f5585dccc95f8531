import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentCategory } from '../../../config/document-categories.ts';
import { supabase } from '../../../lib/supabase.ts';
import { errorMessage, succeeded } from '../../../lib/errors.ts';

/** A document in the trash: who deleted it, when, and when it will be deleted for ever. */
export interface TrashEntry {
  id: string;
  name: string;
  category: DocumentCategory;
  size: number;
  deleted_at: string;
  /** Null when the person who deleted it has since left the installation. */
  deleted_by_name: string | null;
  purge_at: string;
}

/** The most entries the Trash page shows at once (most recently deleted first). */
export const TRASH_PAGE_SIZE = 200;

/**
 * The trash's query key. It starts with `'documents'`: restoring or deleting a document
 * anywhere refreshes it, and a restore here refreshes every list and counter of documents.
 */
export const trashKey = ['documents', 'trash'] as const;

export async function listTrash(): Promise<TrashEntry[]> {
  const { data } = await succeeded(
    supabase()
      .rpc('list_trash')
      .range(0, TRASH_PAGE_SIZE - 1),
    'Failed to load the trash',
  );
  return (data ?? []) as TrashEntry[];
}

export const trashQueryOptions = () => queryOptions({ queryKey: trashKey, queryFn: listTrash });

export const useTrash = () => useQuery(trashQueryOptions());

/** What one can do with documents in the trash; all of them refresh every read of documents. */
export type TrashAction =
  { kind: 'restore'; ids: string[] } | { kind: 'purge'; ids: string[] } | { kind: 'empty' };

async function applyTrashAction(action: TrashAction): Promise<void> {
  const client = supabase();
  await succeeded(
    action.kind === 'restore'
      ? client.rpc('restore_documents', { document_ids: action.ids })
      : action.kind === 'purge'
        ? client.rpc('purge_documents', { document_ids: action.ids })
        : client.rpc('empty_trash'),
  );
}

export function useTrashAction() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: {
      errorMessage: (error, action) =>
        `Failed to ${(action as TrashAction).kind === 'restore' ? 'restore' : 'delete'} document: ${errorMessage(error)}`,
    },
    mutationFn: applyTrashAction,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['documents'] }),
  });
}
