/** Tags of a document (product-spec §5, §9). */

/** The number of tags a table row shows before `+N`. */
export const VISIBLE_TAG_COUNT = 3;

/** Splits comma-separated input into tags: trimmed, empties dropped. */
export function parseTags(input: string): string[] {
  return input
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

/** Tags as the edit form shows them. */
export function tagsToInput(tags: readonly string[] | null | undefined): string {
  return (tags ?? []).join(', ');
}

/** The first three tags, and how many more there are (shown as `+N`). */
export function visibleTags(
  tags: readonly string[] | null | undefined,
  limit = VISIBLE_TAG_COUNT,
): { shown: string[]; hidden: number } {
  const all = tags ?? [];
  return { shown: all.slice(0, limit), hidden: Math.max(0, all.length - limit) };
}
