import { Search } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { FormField, Input, Select } from '../../../components/ui/form-field.tsx';
import { categoryOptionLabel, RestrictedLock } from '../../../components/restricted-lock.tsx';
import {
  filterCategories,
  isRestrictedCategory,
  useDocumentCategories,
} from '../../../lib/document-categories.ts';
import { useOrganizationMembers } from '../api/organization-members.ts';
import { EXPIRY_FILTERS, type DocumentQuery, type ExpiryFilter } from '../api/search-documents.ts';

/** Waits this long after the last keystroke before searching. */
export const SEARCH_DELAY_MS = 300;

export const EXPIRY_LABELS: Record<ExpiryFilter, string> = {
  overdue: 'Overdue',
  soon: 'Expiring within 30 days',
  later: 'Expiring later',
  none: 'No expiry date',
};

type QueryChange = (change: Partial<DocumentQuery>, options?: { replace?: boolean }) => void;

/**
 * A text field of the query that applies what is typed once the typing pauses (replacing the
 * history entry, so that Back skips the keystrokes), and follows the address when it changes by
 * itself (Back, a link).
 */
function useTypedField(applied: string, apply: (text: string) => void) {
  const [text, setText] = useState(applied);
  useEffect(() => setText(applied), [applied]);
  useEffect(() => {
    if (text === applied) return;
    const timer = setTimeout(() => apply(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, applied, apply]);
  return [text, setText] as const;
}

/**
 * The search box (names, tags, categories, descriptions and the text inside files, with
 * qualifiers), the category filter (spec §2), and the filters by tag, expiry and uploader.
 * Typing searches once the typing pauses.
 */
export function DocumentFilters({
  query,
  onChange,
}: {
  query: DocumentQuery;
  onChange: QueryChange;
}) {
  const [text, setText] = useTypedField(
    query.search,
    useCallback((search) => onChange({ search }, { replace: true }), [onChange]),
  );
  const [tag, setTag] = useTypedField(
    query.tag ?? '',
    useCallback((typed) => onChange({ tag: typed.trim() || null }, { replace: true }), [onChange]),
  );
  const members = useOrganizationMembers();
  const categories = useDocumentCategories();
  const offered = filterCategories(categories.data ?? []);

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
            <div className="flex items-center gap-2">
              <Select
                {...props}
                value={query.category ?? ''}
                onChange={(event) => onChange({ category: event.target.value || null })}
              >
                <option value="">All Categories</option>
                {/* A category named in the address but not offered keeps the choice. */}
                {query.category && !offered.some(({ name }) => name === query.category) && (
                  <option value={query.category}>{query.category}</option>
                )}
                {offered.map((category) => (
                  <option key={category.id} value={category.name}>
                    {categoryOptionLabel(category)}
                  </option>
                ))}
              </Select>
              {query.category && isRestrictedCategory(categories.data, query.category) && (
                <RestrictedLock className="h-4 w-4" />
              )}
            </div>
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
      <div className="flex flex-col gap-3 pt-2 sm:flex-row">
        <FormField label="Filter by tag" hideLabel className="sm:w-56">
          {(props) => (
            <Input
              {...props}
              type="search"
              value={tag}
              onChange={(event) => setTag(event.target.value)}
              placeholder="Tag"
              autoComplete="off"
            />
          )}
        </FormField>
        <FormField label="Filter by uploader" hideLabel className="sm:w-56">
          {(props) => (
            <Select
              {...props}
              value={query.uploader ?? ''}
              onChange={(event) => onChange({ uploader: event.target.value || null })}
            >
              <option value="">All uploaders</option>
              {/* A member named in the address but not (or not yet) listed keeps the choice. */}
              {query.uploader && !members.data?.some((member) => member.id === query.uploader) && (
                <option value={query.uploader}>Selected uploader</option>
              )}
              {members.data?.map((member) => (
                <option key={member.id} value={member.id}>
                  {member.full_name || member.email}
                </option>
              ))}
            </Select>
          )}
        </FormField>
      </div>
      <p id="document-search-help" className="text-xs text-gray-500">
        Search names, tags and the words inside files
      </p>
    </div>
  );
}
