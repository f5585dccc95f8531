import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  NEW_INTEGRATION_DRAFT,
  draftFromIntegration,
  validateIntegrationDraft,
  type IntegrationDetails,
  type IntegrationDraft,
  type IntegrationDraftErrors,
} from '../lib/integration-draft.ts';
import type { IntegrationView } from '../lib/integration-view.ts';

/**
 * State of the edit-integration dialog: the draft (a new integration starts from the
 * specification's defaults), its field errors, and saving / removing; a refusal is the notice
 * "Could not save: {reason}" and the dialog stays open.
 */
export function useIntegrationForm(
  integration: IntegrationView | null,
  actions: {
    onSave: (details: IntegrationDetails) => Promise<void>;
    onRemove?: () => Promise<void>;
  },
) {
  const [start] = useState<IntegrationDraft>(() =>
    integration ? draftFromIntegration(integration) : NEW_INTEGRATION_DRAFT,
  );
  const [draft, setDraft] = useState<IntegrationDraft>(start);
  const [errors, setErrors] = useState<IntegrationDraftErrors>({});
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const saving = useMutation({
    mutationFn: actions.onSave,
    meta: { errorMessage: 'Could not save' },
  });
  const removing = useMutation({
    mutationFn: async () => actions.onRemove?.(),
    meta: { errorMessage: 'Could not save' },
  });
  // After success the dialog is closing: it stays busy until it is gone.
  const busy =
    saving.isPending || saving.isSuccess
      ? ('saving' as const)
      : removing.isPending || removing.isSuccess
        ? ('removing' as const)
        : null;

  function update<K extends keyof IntegrationDraft>(field: K, value: IntegrationDraft[K]) {
    setDraft((previous) => ({ ...previous, [field]: value }));
    // A corrected field loses its message at once; the others keep theirs until saving.
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  }

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    const result = validateIntegrationDraft(draft);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    removing.reset();
    saving.mutate(result.details);
  }

  function remove() {
    if (busy || !actions.onRemove) return;
    saving.reset();
    removing.mutate();
  }

  return {
    draft,
    update,
    errors,
    busy,
    /** Something was typed that is not saved. */
    changed: busy === null && JSON.stringify(draft) !== JSON.stringify(start),
    submit,
    remove,
    confirmingRemoval,
    setConfirmingRemoval,
  };
}
