import type { DocumentMatch } from '../lib/document-match.ts';

/**
 * The queries of category and department pages. They read the documents table, so their keys
 * start with `'documents'`: any change to a document refreshes them.
 */
export const categoryDocumentKeys = {
  /** The documents that belong on a page, described by its match. */
  matching: (match: DocumentMatch) =>
    ['documents', 'matching', match.documentCategory, [...match.tags]] as const,
};
