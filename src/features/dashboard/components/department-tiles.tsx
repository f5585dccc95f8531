import { Link } from 'react-router-dom';
import { DEPARTMENTS } from '../../../config/departments.ts';
import { paths } from '../../../config/paths.ts';
import { useDepartmentTiles } from '../api/department-tiles.ts';

/**
 * The Business Departments tiles, each opening its department page (spec §2): the
 * organisation's own (Settings), the specification's nine to start with.
 */
export function DepartmentTiles() {
  const stored = useDepartmentTiles();
  const tiles = stored.data ?? [];
  return (
    <section aria-labelledby="departments-heading">
      <h2 id="departments-heading" className="text-lg font-semibold text-gray-900">
        Business Departments
      </h2>
      <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {tiles.map(({ key, name }) => {
          const spec = DEPARTMENTS.find((department) => department.key === key);
          const Icon = spec?.icon;
          return (
            <li key={key}>
              <Link
                to={paths.department(key)}
                className="flex h-full items-center gap-3 rounded-lg border border-gray-200 bg-white p-3 shadow-sm hover:border-primary-300 hover:shadow focus-visible:outline-2 focus-visible:outline-primary-600"
              >
                {/* A department the organisation added has no icon of its own. */}
                {Icon && (
                  <span
                    data-tone={`department-${key}`}
                    className="rounded-md bg-tone-100 p-2 text-tone-700"
                    aria-hidden="true"
                  >
                    <Icon className="h-5 w-5" />
                  </span>
                )}
                <span className="text-sm font-medium text-gray-900">{name}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
