import type { DocumentMatch } from '../lib/document-match.ts';

/**
 * The queries of category and department pages. They read the documents table, so their keys
 * start with `'documents'`: any change to a document refreshes them.
 */
export const categoryDocumentKeys = {
  /** A page of the documents that belong on a page, described by its match, and its search. */
  matching: (match: DocumentMatch, search: string, page: number) =>
    [
      'documents',
      'matching',
      match.documentCategory,
      [...match.tags],
      [...(match.categories ?? [])],
      search,
      page,
    ] as const,
};
