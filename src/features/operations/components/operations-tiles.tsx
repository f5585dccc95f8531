import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import {
  OPERATIONS_CATEGORIES,
  findOperationsCategory,
} from '../../../config/operations-categories.ts';

/** The nine tiles of the Operations Center, each opening /operations/{id} (product-spec §2). */
export function OperationsTiles() {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Operations categories">
      {OPERATIONS_CATEGORIES.map(({ key }) => {
        const category = findOperationsCategory(key)!;
        const Icon = category.icon;
        return (
          <li key={key}>
            <Link
              to={paths.operationsCategory(key)}
              data-category-id={key}
              className="flex h-full items-start gap-4 rounded-lg border border-gray-200 bg-white p-4 shadow-sm transition hover:border-gray-300 hover:shadow focus-visible:outline-2 focus-visible:outline-primary-600"
            >
              <span
                data-tone={`category-${key}`}
                className="shrink-0 rounded-md bg-tone-100 p-2 text-tone-700"
                aria-hidden="true"
              >
                <Icon className="h-6 w-6" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block font-semibold text-gray-900">{category.label}</span>
                <span className="mt-1 block text-sm text-gray-600">{category.description}</span>
              </span>
              <ChevronRight className="h-5 w-5 shrink-0 text-gray-400" aria-hidden="true" />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
