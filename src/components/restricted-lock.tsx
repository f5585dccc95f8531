import { Lock } from 'lucide-react';

/**
 * The lock on a restricted category and its documents: only the people its rules name see
 * them. An icon whose accessible name is "Restricted", with the same word as its tooltip.
 */
export function RestrictedLock({ className = 'h-3.5 w-3.5' }: { className?: string }) {
  return (
    <span role="img" aria-label="Restricted" title="Restricted" className="inline-flex shrink-0">
      <Lock className={`${className} text-amber-700`} aria-hidden="true" />
    </span>
  );
}

/** The text of a category in a select's list: a restricted one says so (options hold no icon). */
export function categoryOptionLabel(category: { name: string; restricted: boolean }): string {
  return category.restricted ? `${category.name} (Restricted)` : category.name;
}
