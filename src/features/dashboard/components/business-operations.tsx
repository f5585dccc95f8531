import { Briefcase } from 'lucide-react';
import { Link } from 'react-router-dom';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { paths } from '../../../config/paths.ts';
import { Card } from '../../../components/ui/card.tsx';

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
    <Card as="section" aria-labelledby="operations-heading" className="sm:p-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="operations-heading" className="text-lg font-semibold text-gray-900">
            Business Operations
          </h2>
          <p className="text-sm text-gray-600">
            The tools your church runs on, grouped by area, with their documents and contacts.
          </p>
        </div>
        <ButtonLink to={paths.operations} icon={Briefcase}>
          Operations Center
        </ButtonLink>
      </div>
      <ul className="mt-4 flex flex-wrap gap-2">
        {CHIPS.map(({ label, category }) => (
          <li key={category}>
            <Link
              to={paths.operationsCategory(category)}
              className="inline-block rounded-full bg-gray-100 px-3 py-1 text-sm text-gray-700 hover:bg-primary-50 hover:text-primary-700 focus-visible:outline-2 focus-visible:outline-primary-600"
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}
