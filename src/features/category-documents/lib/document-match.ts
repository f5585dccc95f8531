/**
 * Which documents belong on a category or department page (product-spec §2, Category document
 * list): those whose category is `documentCategory`, or whose tags include one of `tags`.
 */
export interface DocumentMatch {
  /** One of the 14 document categories, or null when no category corresponds. */
  documentCategory: string | null;
  /** Tag spellings that place a document here, e.g. the key and the label (`r-kids`, `R/Kids`). */
  tags: readonly string[];
}

/**
 * The tag spellings for a page: its key, its label and their lower-case forms. Tags are matched
 * exactly (an array overlap on the server), so the usual spellings are listed.
 */
export function tagSpellings(...names: readonly string[]): string[] {
  const spellings = names.flatMap((name) => [name, name.toLowerCase()]);
  return [...new Set(spellings.map((name) => name.trim()).filter(Boolean))];
}

/** Quotes a value for a PostgREST filter or array literal: `"` and `\` escaped. */
function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The PostgREST `or` filter for `match`, e.g.
 * `category.eq."Social Media",tags.ov.{"social-media","Social Media"}`. Every value is quoted, so
 * commas, dots, colons and parentheses in a category or tag cannot change the filter.
 */
export function documentMatchFilter(match: DocumentMatch): string {
  const conditions: string[] = [];
  if (match.documentCategory) conditions.push(`category.eq.${quote(match.documentCategory)}`);
  if (match.tags.length > 0) conditions.push(`tags.ov.{${match.tags.map(quote).join(',')}}`);
  return conditions.join(',');
}
