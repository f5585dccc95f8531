import { CheckCircle2 } from 'lucide-react';
import type { DepartmentDetails } from '../../../config/department-details.ts';

/** The six feature lines of a department (product-spec §2). */
export function DepartmentFeatures({ department }: { department: DepartmentDetails }) {
  return (
    <section
      aria-labelledby="department-features-heading"
      data-tone={`department-${department.key}`}
      className="rounded-lg border border-tone-200 bg-tone-50 p-4 sm:p-6"
    >
      <h2 id="department-features-heading" className="text-lg font-semibold text-tone-800">
        What {department.label} covers
      </h2>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2">
        {department.features.map((feature) => (
          <li key={feature} className="flex items-start gap-2 text-sm text-gray-800">
            <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-tone-800" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
    </section>
  );
}
