import type { DocumentQuery } from './search-documents.ts';

/**
 * The query keys of the documents feature. Every query that reads the `documents` table starts
 * with `'documents'`, whichever feature owns it (the dashboard's counters, the category pages'
 * lists), so one invalidation of `documentKeys.all` refreshes all of them after a change.
 */
export const documentKeys = {
  all: ['documents'] as const,
  /** Pages of the documents list, by search, filters, order and page. */
  searches: () => ['documents', 'search'] as const,
  search: (query: DocumentQuery) => ['documents', 'search', query] as const,
  /** One document, by id (a link that opens it). */
  one: (id: string) => ['documents', 'one', id] as const,
  /** The stored text of a text file (the edit-content modal). */
  text: (filePath: string) => ['documents', 'text', filePath] as const,
  /** A document's earlier versions. */
  versions: (id: string) => ['documents', 'versions', id] as const,
  /** The organisation's active members, for the responsible member. */
  members: () => ['user_profiles', 'documents', 'members'] as const,
  /** What the preview of a stored file shows. */
  preview: (filePath: string) => ['documents', 'preview', filePath] as const,
};
