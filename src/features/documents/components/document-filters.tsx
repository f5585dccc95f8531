import { Search } from 'lucide-react';
import { useId } from 'react';
import { DOCUMENT_CATEGORIES } from '../../../config/document-categories.ts';
import { ALL_CATEGORIES } from '../hooks/use-document-filter.ts';

/** Search by name and the category filter (spec §2 Documents page). */
export function DocumentFilters({
  search,
  category,
  onSearchChange,
  onCategoryChange,
}: {
  search: string;
  category: string;
  onSearchChange: (value: string) => void;
  onCategoryChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-3 sm:flex-row">
      <div className="relative flex-1">
        <label htmlFor={`${id}-search`} className="sr-only">
          Search documents by name
        </label>
        <Search
          className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-gray-400"
          aria-hidden="true"
        />
        <input
          id={`${id}-search`}
          type="search"
          value={search}
          onChange={(event) => onSearchChange(event.target.value)}
          placeholder="Search documents..."
          autoComplete="off"
          className="block w-full rounded-md border border-gray-300 py-2 pr-3 pl-9 text-sm shadow-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 focus:outline-none"
        />
      </div>
      <div className="sm:w-64">
        <label htmlFor={`${id}-category`} className="sr-only">
          Filter by category
        </label>
        <select
          id={`${id}-category`}
          value={category}
          onChange={(event) => onCategoryChange(event.target.value)}
          className="block w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 focus:outline-none"
        >
          <option value={ALL_CATEGORIES}>All Categories</option>
          {DOCUMENT_CATEGORIES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
