import { TONES } from '../../../config/tones.ts';
import type { OperationsCategoryDetails } from '../../../config/operations-categories.ts';

/** The coloured panel that introduces a category's tools (product-spec §2, "a category panel"). */
export function CategoryPanel({ category }: { category: OperationsCategoryDetails }) {
  const tone = TONES[category.tone];
  const Icon = category.icon;
  return (
    <section className={`flex items-start gap-4 rounded-lg border p-4 sm:p-6 ${tone.panel}`}>
      <span className={`shrink-0 rounded-md p-2 ${tone.icon}`} aria-hidden="true">
        <Icon className="h-6 w-6" />
      </span>
      <div className="min-w-0">
        <h2 className={`text-lg font-semibold ${tone.text}`}>{category.panelTitle}</h2>
        <p className="mt-1 text-sm text-gray-700">{category.panelText}</p>
      </div>
    </section>
  );
}
