import { Briefcase } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';

/** The chips of the Business Operations panel and the categories they open (spec §2). */
const CHIPS = [
  { label: 'HR Management', category: 'hr' },
  { label: 'Financial Operations', category: 'accounting' },
  { label: 'Legal Compliance', category: 'legal' },
  { label: 'IT & Technology', category: 'it' },
] as const;

/** Business Operations: the Operations Center button and four category chips. */
export function BusinessOperations() {
  return (
    <section
      aria-labelledby="operations-heading"
      className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="operations-heading" className="text-lg font-semibold text-gray-900">
            Business Operations
          </h2>
          <p className="text-sm text-gray-600">
            The tools your church runs on, grouped by area, with their documents and contacts.
          </p>
        </div>
        <Link
          to={paths.operations}
          className="inline-flex items-center justify-center gap-2 rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          <Briefcase className="h-4 w-4" aria-hidden="true" />
          Operations Center
        </Link>
      </div>
      <ul className="mt-4 flex flex-wrap gap-2">
        {CHIPS.map(({ label, category }) => (
          <li key={category}>
            <Link
              to={paths.operationsCategory(category)}
              className="inline-block rounded-full bg-gray-100 px-3 py-1 text-sm text-gray-700 hover:bg-blue-50 hover:text-blue-700 focus-visible:outline-2 focus-visible:outline-blue-600"
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
