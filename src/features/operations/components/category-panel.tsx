import type { OperationsCategoryDetails } from '../../../config/operations-categories.ts';

/** The coloured panel that introduces a category's tools (product-spec §2, "a category panel"). */
export function CategoryPanel({ category }: { category: OperationsCategoryDetails }) {
  const Icon = category.icon;
  return (
    <section
      data-tone={`category-${category.key}`}
      className="flex items-start gap-4 rounded-lg border border-tone-200 bg-tone-50 p-4 sm:p-6"
    >
      <span className="shrink-0 rounded-md bg-tone-100 p-2 text-tone-700" aria-hidden="true">
        <Icon className="h-6 w-6" />
      </span>
      <div className="min-w-0">
        <h2 className="text-lg font-semibold text-tone-800">{category.panelTitle}</h2>
        <p className="mt-1 text-sm text-gray-700">{category.panelText}</p>
      </div>
    </section>
  );
}
