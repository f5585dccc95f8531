import { useId } from 'react';
import { DOCUMENT_CATEGORIES } from '../../../config/document-categories.ts';
import type { PropertyInput } from '../utils/property-values.ts';

const field =
  'mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 text-sm shadow-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 focus:outline-none disabled:bg-gray-100';

/**
 * Category (required), expiry date, tags and description: the fields of the upload form and of
 * the edit-properties modal (spec §2, §5).
 */
export function DocumentPropertyFields({
  values,
  onChange,
  disabled = false,
}: {
  values: PropertyInput;
  onChange: (next: PropertyInput) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const set =
    (key: keyof PropertyInput) =>
    (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
      onChange({ ...values, [key]: event.target.value });

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div>
        <label htmlFor={`${id}-category`} className="block text-sm font-medium text-gray-700">
          Category{' '}
          <span aria-hidden="true" className="text-red-600">
            *
          </span>
        </label>
        <select
          id={`${id}-category`}
          value={values.category}
          onChange={set('category')}
          disabled={disabled}
          aria-required="true"
          className={field}
        >
          <option value="">Select a category</option>
          {DOCUMENT_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-expiry`} className="block text-sm font-medium text-gray-700">
          Expiry Date
        </label>
        <input
          id={`${id}-expiry`}
          type="date"
          value={values.expiryDate}
          onChange={set('expiryDate')}
          disabled={disabled}
          className={field}
        />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={`${id}-tags`} className="block text-sm font-medium text-gray-700">
          Tags
        </label>
        <input
          id={`${id}-tags`}
          type="text"
          value={values.tags}
          onChange={set('tags')}
          disabled={disabled}
          placeholder="e.g. insurance, 2025, renewal"
          aria-describedby={`${id}-tags-hint`}
          className={field}
        />
        <p id={`${id}-tags-hint`} className="mt-1 text-xs text-gray-500">
          Separate tags with commas.
        </p>
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={`${id}-description`} className="block text-sm font-medium text-gray-700">
          Description
        </label>
        <textarea
          id={`${id}-description`}
          rows={3}
          value={values.description}
          onChange={set('description')}
          disabled={disabled}
          className={field}
        />
      </div>
    </div>
  );
}
