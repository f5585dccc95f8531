import { visibleTags } from '../lib/tags.ts';

/** Up to three tags, then `+N` for the rest (spec §2, §9); the full list in the tooltip. */
export function TagList({ tags }: { tags: readonly string[] | null }) {
  const { shown, hidden } = visibleTags(tags);
  if (shown.length === 0) return null;
  return (
    <ul className="mt-1 flex min-w-0 flex-nowrap gap-1 overflow-hidden" aria-label="Tags">
      {shown.map((tag, index) => (
        <li
          key={`${index}-${tag}`}
          className="max-w-[8rem] truncate rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700"
          title={tag}
        >
          {tag}
        </li>
      ))}
      {hidden > 0 && (
        <li
          className="shrink-0 rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700"
          title={(tags ?? []).join(', ')}
        >
          <span aria-hidden="true">+{hidden}</span>
          <span className="sr-only">and {hidden} more</span>
        </li>
      )}
    </ul>
  );
}
