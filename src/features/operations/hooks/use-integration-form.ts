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
 * specification's defaults), its field errors, and saving / removing with the server's error.
 */
export function useIntegrationForm(
  integration: IntegrationView | null,
  actions: {
    onSave: (details: IntegrationDetails) => Promise<void>;
    onRemove?: () => Promise<void>;
  },
) {
  const [draft, setDraft] = useState<IntegrationDraft>(() =>
    integration ? draftFromIntegration(integration) : NEW_INTEGRATION_DRAFT,
  );
  const [errors, setErrors] = useState<IntegrationDraftErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'saving' | 'removing' | null>(null);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);

  function update<K extends keyof IntegrationDraft>(field: K, value: IntegrationDraft[K]) {
    setDraft((previous) => ({ ...previous, [field]: value }));
    // A corrected field loses its message at once; the others keep theirs until saving.
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  }

  async function run(kind: 'saving' | 'removing', action: () => Promise<void>) {
    setBusy(kind);
    setServerError(null);
    try {
      await action();
    } catch (error) {
      setServerError(error instanceof Error ? error.message : String(error));
      setBusy(null);
    }
  }

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    const result = validateIntegrationDraft(draft);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    await run('saving', () => actions.onSave(result.details));
  }

  async function remove() {
    if (busy || !actions.onRemove) return;
    await run('removing', actions.onRemove);
  }

  return {
    draft,
    update,
    errors,
    serverError,
    busy,
    submit,
    remove,
    confirmingRemoval,
    setConfirmingRemoval,
  };
}
