import { CheckCircle2 } from 'lucide-react';
import type { DepartmentDetails } from '../../../config/departments.ts';
import { TONES } from '../../../config/tones.ts';

/** The six feature lines of a department (product-spec §2). */
export function DepartmentFeatures({ department }: { department: DepartmentDetails }) {
  const tone = TONES[department.tone];
  return (
    <section
      aria-labelledby="department-features-heading"
      className={`rounded-lg border p-4 sm:p-6 ${tone.panel}`}
    >
      <h2 id="department-features-heading" className={`text-lg font-semibold ${tone.text}`}>
        What {department.label} covers
      </h2>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2">
        {department.features.map((feature) => (
          <li key={feature} className="flex items-start gap-2 text-sm text-gray-800">
            <CheckCircle2 className={`mt-0.5 h-4 w-4 shrink-0 ${tone.text}`} aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
    </section>
  );
}
