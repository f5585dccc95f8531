/**
 * Which documents belong on a category or department page (product-spec §2, Category document
 * list): those whose category is `documentCategory`, or whose tags include one of `tags`.
 */
export interface DocumentMatch {
  /** One of the 14 document categories, or null when no category corresponds. */
  documentCategory: string | null;
  /** Tag spellings that place a document here, e.g. the key and the label (`r-kids`, `R/Kids`). */
  tags: readonly string[];
  /** More categories that place a document here (a department's own, chosen in Settings). */
  categories?: readonly string[];
}

/**
 * The tag spellings for a page: its key, its label and their lower-case forms. Tags are matched
 * exactly (an array overlap in `search_documents`), so the usual spellings are listed.
 */
export function tagSpellings(...names: readonly string[]): string[] {
  const spellings = names.flatMap((name) => [name, name.toLowerCase()]);
  return [...new Set(spellings.map((name) => name.trim()).filter(Boolean))];
}
