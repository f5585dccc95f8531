import { Search } from 'lucide-react';
import { FormField, Input, Select } from '../../../components/ui/form-field.tsx';
import { DOCUMENT_CATEGORIES } from '../../../config/document-categories.ts';
import {
  ALL_CATEGORIES,
  EXPIRY_FILTERS,
  isExpiryFilter,
  type ExpiryFilter,
} from '../hooks/use-document-filter.ts';

/** Search by name, the category filter (spec §2 Documents page) and the expiry filter. */
export function DocumentFilters({
  search,
  category,
  expiry,
  onSearchChange,
  onCategoryChange,
  onExpiryChange,
}: {
  search: string;
  category: string;
  expiry: ExpiryFilter;
  onSearchChange: (value: string) => void;
  onCategoryChange: (value: string) => void;
  onExpiryChange: (value: ExpiryFilter) => void;
}) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row">
      <FormField label="Search documents by name" hideLabel className="relative flex-1">
        {(props) => (
          <>
            <Search
              className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-gray-400"
              aria-hidden="true"
            />
            <Input
              {...props}
              type="search"
              value={search}
              onChange={(event) => onSearchChange(event.target.value)}
              placeholder="Search documents..."
              autoComplete="off"
              className="pl-9"
            />
          </>
        )}
      </FormField>
      <FormField label="Filter by category" hideLabel className="sm:w-64">
        {(props) => (
          <Select
            {...props}
            value={category}
            onChange={(event) => onCategoryChange(event.target.value)}
          >
            <option value={ALL_CATEGORIES}>All Categories</option>
            {DOCUMENT_CATEGORIES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <FormField label="Filter by expiry date" hideLabel className="sm:w-48">
        {(props) => (
          <Select
            {...props}
            value={expiry}
            onChange={(event) => {
              const value = event.target.value;
              if (isExpiryFilter(value)) onExpiryChange(value);
            }}
          >
            {EXPIRY_FILTERS.map((filter) => (
              <option key={filter.value} value={filter.value}>
                {filter.label}
              </option>
            ))}
          </Select>
        )}
      </FormField>
    </div>
  );
}
