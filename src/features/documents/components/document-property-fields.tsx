import { FormField, Input, Select, Textarea } from '../../../components/ui/form-field.tsx';
import { categoryOptionLabel } from '../../../components/restricted-lock.tsx';
import {
  NO_CATEGORY_ACCESS,
  pickerCategories,
  useDocumentCategories,
} from '../../../lib/document-categories.ts';
import type { PropertyInput } from '../utils/property-values.ts';

/**
 * Category (required), expiry date, tags and description: the fields of the upload form and of
 * the edit-properties modal (spec §2, §5).
 */
export function DocumentPropertyFields({
  values,
  onChange,
  disabled = false,
  categoryError = null,
  currentCategory = null,
}: {
  values: PropertyInput;
  onChange: (next: PropertyInput) => void;
  disabled?: boolean;
  /** Why the category cannot be taken ("Please select a category."), shown under it. */
  categoryError?: string | null;
  /** The document's category as saved: it stays offered even when retired or not editable. */
  currentCategory?: string | null;
}) {
  const categories = useDocumentCategories();
  // Only the categories in use that the member may upload into (a retired one leaves the list).
  const offered = pickerCategories(categories.data ?? []);
  const set =
    (key: keyof PropertyInput) =>
    (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
      onChange({ ...values, [key]: event.target.value });

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField
        label="Category"
        required
        error={categoryError}
        // Every category is closed to this member: say why the list is empty.
        hint={categories.data && offered.length === 0 ? NO_CATEGORY_ACCESS : undefined}
      >
        {(props) => (
          <Select {...props} value={values.category} onChange={set('category')} disabled={disabled}>
            <option value="">Select a category</option>
            {currentCategory && !offered.some(({ name }) => name === currentCategory) && (
              <option value={currentCategory}>{currentCategory}</option>
            )}
            {offered.map((category) => (
              <option key={category.id} value={category.name}>
                {categoryOptionLabel(category)}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <FormField label="Expiry Date">
        {(props) => (
          <Input
            {...props}
            type="date"
            value={values.expiryDate}
            onChange={set('expiryDate')}
            disabled={disabled}
          />
        )}
      </FormField>
      <FormField label="Tags" hint="Separate tags with commas." className="sm:col-span-2">
        {(props) => (
          <Input
            {...props}
            type="text"
            value={values.tags}
            onChange={set('tags')}
            disabled={disabled}
            placeholder="e.g. insurance, 2025, renewal"
          />
        )}
      </FormField>
      <FormField label="Description" className="sm:col-span-2">
        {(props) => (
          <Textarea
            {...props}
            rows={3}
            value={values.description}
            onChange={set('description')}
            disabled={disabled}
          />
        )}
      </FormField>
    </div>
  );
}
