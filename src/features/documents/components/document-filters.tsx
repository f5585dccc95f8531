import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { FormField, Input, Select } from '../../../components/ui/form-field.tsx';
import { DOCUMENT_CATEGORIES } from '../../../config/document-categories.ts';
import { EXPIRY_FILTERS, type DocumentQuery, type ExpiryFilter } from '../api/search-documents.ts';

/** Waits this long after the last keystroke before searching. */
export const SEARCH_DELAY_MS = 300;

export const EXPIRY_LABELS: Record<ExpiryFilter, string> = {
  overdue: 'Overdue',
  soon: 'Expiring within 30 days',
  later: 'Expiring later',
  none: 'No expiry date',
};

/**
 * The search box (names, tags, categories, descriptions and the text inside files, with
 * qualifiers), the category filter (spec §2) and the expiry filter. Typing searches once the
 * typing pauses.
 */
export function DocumentFilters({
  query,
  onChange,
}: {
  query: DocumentQuery;
  onChange: (change: Partial<DocumentQuery>, options?: { replace?: boolean }) => void;
}) {
  const [text, setText] = useState(query.search);
  // The address changed by itself (Back, a link): the box follows.
  useEffect(() => setText(query.search), [query.search]);
  useEffect(() => {
    if (text === query.search) return;
    const timer = setTimeout(() => onChange({ search: text }, { replace: true }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, query.search, onChange]);

  return (
    <div className="space-y-1">
      <div className="flex flex-col gap-3 sm:flex-row">
        <FormField label="Search documents" hideLabel className="relative flex-1">
          {(props) => (
            <>
              <Search
                className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-gray-400"
                aria-hidden="true"
              />
              <Input
                {...props}
                type="search"
                value={text}
                onChange={(event) => setText(event.target.value)}
                placeholder="Search documents..."
                aria-describedby="document-search-help"
                autoComplete="off"
                className="pl-9"
              />
            </>
          )}
        </FormField>
        <FormField label="Filter by category" hideLabel className="sm:w-56">
          {(props) => (
            <Select
              {...props}
              value={query.category ?? ''}
              onChange={(event) => onChange({ category: event.target.value || null })}
            >
              <option value="">All Categories</option>
              {DOCUMENT_CATEGORIES.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField label="Filter by expiry" hideLabel className="sm:w-56">
          {(props) => (
            <Select
              {...props}
              value={query.expiry ?? ''}
              onChange={(event) =>
                onChange({ expiry: (event.target.value || null) as ExpiryFilter | null })
              }
            >
              <option value="">All expiry dates</option>
              {EXPIRY_FILTERS.map((state) => (
                <option key={state} value={state}>
                  {EXPIRY_LABELS[state]}
                </option>
              ))}
            </Select>
          )}
        </FormField>
      </div>
      <p id="document-search-help" className="text-xs text-gray-500">
        Searches names, tags, descriptions and the text inside files. Use &quot;quotes&quot; for a
        phrase, -word to leave a word out, and tag:, category: or expires: (e.g.
        expires:&lt;2027-01-01) to narrow.
      </p>
    </div>
  );
}
