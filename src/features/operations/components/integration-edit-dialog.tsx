import { RotateCcw, Trash2 } from 'lucide-react';
import { Modal } from '../../../components/modal.tsx';
import { INTEGRATION_CATEGORIES } from '../../../config/integration-categories.ts';
import { useIntegrationForm } from '../hooks/use-integration-form.ts';
import type { IntegrationDetails } from '../lib/integration-draft.ts';
import type { IntegrationView } from '../lib/integration-view.ts';
import { FormField, fieldBorder, fieldClass } from './form-field.tsx';

export interface IntegrationEditDialogProps {
  /** The card being edited; null for Add Integration. */
  integration: IntegrationView | null;
  onSave: (details: IntegrationDetails) => Promise<void>;
  /** Deletes a custom integration or restores a customised built-in one. */
  onRemove?: () => Promise<void>;
  onClose: () => void;
}

/**
 * The master admin's edit dialog (product-spec §2, §5): name, description, URL and category
 * required, the URL an http(s) address, the category from the specification's list; tags and
 * a note optional.
 */
export function IntegrationEditDialog({
  integration,
  onSave,
  onRemove,
  onClose,
}: IntegrationEditDialogProps) {
  const form = useIntegrationForm(integration, { onSave, onRemove });
  const { draft, errors } = form;
  const removeLabel = integration?.source === 'custom' ? 'Delete Integration' : 'Restore Defaults';
  const RemoveIcon = integration?.source === 'custom' ? Trash2 : RotateCcw;
  const removeQuestion =
    integration?.source === 'custom'
      ? `Are you sure you want to delete "${integration.name}"?`
      : `Restore the original details of ${integration?.name ?? ''}? Your changes to this card will be removed.`;

  return (
    <Modal
      title={integration ? `Edit ${integration.name}` : 'Add Integration'}
      onClose={onClose}
      size="lg"
      dismissible={!form.busy}
    >
      <form onSubmit={(event) => void form.submit(event)} noValidate className="space-y-4">
        <FormField label="Name" error={errors.name}>
          {(props) => (
            <input
              {...props}
              type="text"
              value={draft.name}
              onChange={(event) => form.update('name', event.target.value)}
              required
              className={`${fieldClass} ${fieldBorder(errors.name)}`}
            />
          )}
        </FormField>
        <FormField label="Description" error={errors.description}>
          {(props) => (
            <textarea
              {...props}
              rows={3}
              value={draft.description}
              onChange={(event) => form.update('description', event.target.value)}
              required
              className={`${fieldClass} ${fieldBorder(errors.description)}`}
            />
          )}
        </FormField>
        <FormField
          label="Website URL"
          error={errors.url}
          hint="The address the Open button goes to, starting with https://."
        >
          {(props) => (
            <input
              {...props}
              type="url"
              inputMode="url"
              value={draft.url}
              onChange={(event) => form.update('url', event.target.value)}
              required
              className={`${fieldClass} ${fieldBorder(errors.url)}`}
            />
          )}
        </FormField>
        <FormField label="Category" error={errors.category}>
          {(props) => (
            <select
              {...props}
              value={draft.category}
              onChange={(event) => form.update('category', event.target.value)}
              required
              className={`${fieldClass} ${fieldBorder(errors.category)} bg-white`}
            >
              <option value="">Choose a category</option>
              {INTEGRATION_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Tags (optional)" error={errors.tags} hint="Separate tags with commas.">
          {(props) => (
            <input
              {...props}
              type="text"
              value={draft.tags}
              onChange={(event) => form.update('tags', event.target.value)}
              className={`${fieldClass} ${fieldBorder(errors.tags)}`}
            />
          )}
        </FormField>
        <FormField label="Note (optional)" error={errors.note}>
          {(props) => (
            <textarea
              {...props}
              rows={2}
              value={draft.note}
              onChange={(event) => form.update('note', event.target.value)}
              className={`${fieldClass} ${fieldBorder(errors.note)}`}
            />
          )}
        </FormField>

        {form.serverError && (
          <p
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
          >
            Could not save: {form.serverError}
          </p>
        )}

        {form.confirmingRemoval ? (
          <div
            role="group"
            aria-label={removeLabel}
            className="rounded-md border border-red-200 bg-red-50 p-3"
          >
            <p className="text-sm text-red-800">{removeQuestion}</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <button
                type="button"
                onClick={() => void form.remove()}
                disabled={Boolean(form.busy)}
                className="rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-50"
              >
                {form.busy === 'removing' ? 'Working...' : `Yes, ${removeLabel.toLowerCase()}`}
              </button>
              <button
                type="button"
                onClick={() => form.setConfirmingRemoval(false)}
                disabled={Boolean(form.busy)}
                className="rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-50"
              >
                Keep it
              </button>
            </div>
          </div>
        ) : null}

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-between">
          <div>
            {onRemove && !form.confirmingRemoval && (
              <button
                type="button"
                onClick={() => form.setConfirmingRemoval(true)}
                disabled={Boolean(form.busy)}
                className="inline-flex w-full items-center justify-center gap-1.5 rounded-md border border-red-300 px-3 py-2 text-sm font-medium text-red-700 hover:bg-red-50 sm:w-auto"
              >
                <RemoveIcon className="h-4 w-4" aria-hidden="true" />
                {removeLabel}
              </button>
            )}
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <button
              type="button"
              onClick={onClose}
              disabled={Boolean(form.busy)}
              className="rounded-md border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-50"
            >
              Cancel
            </button>
            <button
              type="submit"
              disabled={Boolean(form.busy)}
              className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-50"
            >
              {form.busy === 'saving' ? 'Saving...' : 'Save Changes'}
            </button>
          </div>
        </div>
      </form>
    </Modal>
  );
}
