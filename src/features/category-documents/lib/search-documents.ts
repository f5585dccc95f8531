import type { DocumentRecord } from '../../../lib/documents.ts';

/**
 * The documents whose name, description or any tag contains `query`, ignoring case and the
 * spaces around it (product-spec §2, Category document list). An empty query keeps them all.
 */
export function searchDocuments<T extends Pick<DocumentRecord, 'name' | 'description' | 'tags'>>(
  documents: readonly T[],
  query: string,
): T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...documents];
  return documents.filter(
    (document) =>
      document.name.toLowerCase().includes(needle) ||
      (document.description ?? '').toLowerCase().includes(needle) ||
      (document.tags ?? []).some((tag) => tag.toLowerCase().includes(needle)),
  );
}
