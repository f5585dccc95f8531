import { RotateCcw, Trash2 } from 'lucide-react';
import { Modal } from '../../../components/ui/modal.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FormField, Input, Select, Textarea } from '../../../components/ui/form-field.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import { INTEGRATION_CATEGORIES } from '../../../config/integration-categories.ts';
import { useIntegrationForm } from '../hooks/use-integration-form.ts';
import type { IntegrationDetails } from '../lib/integration-draft.ts';
import type { IntegrationView } from '../lib/integration-view.ts';

/** Asked before the page is left with an integration changed but not saved. */
export const UNSAVED_INTEGRATION_QUESTION =
  'You have changed this integration without saving it. Leave without saving?';

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
  useLeaveGuard(form.changed, UNSAVED_INTEGRATION_QUESTION);
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
      <form onSubmit={form.submit} noValidate className="space-y-4">
        <FormField label="Name" error={errors.name}>
          {(props) => (
            <Input
              {...props}
              type="text"
              value={draft.name}
              onChange={(event) => form.update('name', event.target.value)}
              required
            />
          )}
        </FormField>
        <FormField label="Description" error={errors.description}>
          {(props) => (
            <Textarea
              {...props}
              rows={3}
              value={draft.description}
              onChange={(event) => form.update('description', event.target.value)}
              required
            />
          )}
        </FormField>
        <FormField
          label="Website URL"
          error={errors.url}
          hint="The address the Open button goes to, starting with https://."
        >
          {(props) => (
            <Input
              {...props}
              type="url"
              inputMode="url"
              value={draft.url}
              onChange={(event) => form.update('url', event.target.value)}
              required
            />
          )}
        </FormField>
        <FormField label="Category" error={errors.category}>
          {(props) => (
            <Select
              {...props}
              value={draft.category}
              onChange={(event) => form.update('category', event.target.value)}
              required
            >
              <option value="">Choose a category</option>
              {INTEGRATION_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField label="Tags (optional)" error={errors.tags} hint="Separate tags with commas.">
          {(props) => (
            <Input
              {...props}
              type="text"
              value={draft.tags}
              onChange={(event) => form.update('tags', event.target.value)}
            />
          )}
        </FormField>
        <FormField label="Note (optional)" error={errors.note}>
          {(props) => (
            <Textarea
              {...props}
              rows={2}
              value={draft.note}
              onChange={(event) => form.update('note', event.target.value)}
            />
          )}
        </FormField>

        {form.confirmingRemoval ? (
          <div
            role="group"
            aria-label={removeLabel}
            data-tone="danger"
            className="rounded-md border border-tone-200 bg-tone-50 p-3"
          >
            <p className="text-sm text-tone-800">{removeQuestion}</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button
                variant="destructive"
                size="sm"
                onClick={form.remove}
                disabled={Boolean(form.busy)}
                busy={form.busy === 'removing'}
                busyLabel="Working..."
              >
                {`Yes, ${removeLabel.toLowerCase()}`}
              </Button>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => form.setConfirmingRemoval(false)}
                disabled={Boolean(form.busy)}
              >
                Keep it
              </Button>
            </div>
          </div>
        ) : null}

        <DialogActions
          className=""
          start={
            onRemove && !form.confirmingRemoval ? (
              <Button
                variant="destructive-outline"
                icon={RemoveIcon}
                onClick={() => form.setConfirmingRemoval(true)}
                disabled={Boolean(form.busy)}
                className="w-full sm:w-auto"
              >
                {removeLabel}
              </Button>
            ) : null
          }
        >
          <Button variant="secondary" onClick={onClose} disabled={Boolean(form.busy)}>
            Cancel
          </Button>
          <Button
            type="submit"
            disabled={Boolean(form.busy)}
            busy={form.busy === 'saving'}
            busyLabel="Saving..."
          >
            Save Changes
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}
