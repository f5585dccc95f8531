import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';

/** A message per field of the draft that did not pass. */
export type DraftErrors<Draft> = Partial<Record<keyof Draft, string>>;

/**
 * A form edited as a draft of strings, checked by `validate` before `onSave` gets the details:
 * the field errors of the last check under their fields. A failed save is the notice
 * "{failure}: {reason}" and the form stays open for another try; after a successful one the
 * caller closes it.
 */
export function useDraftForm<Draft extends object, Details>(
  initial: () => Draft,
  validate: (
    draft: Draft,
  ) => { ok: true; details: Details } | { ok: false; errors: DraftErrors<Draft> },
  onSave: (details: Details) => Promise<void>,
  failure: string,
) {
  const [start] = useState<Draft>(initial);
  const [draft, setDraft] = useState<Draft>(start);
  const [errors, setErrors] = useState<DraftErrors<Draft>>({});
  const saving = useMutation({ mutationFn: onSave, meta: { errorMessage: failure } });

  // The form's controls give strings; a select offers only its field's values.
  function setField(field: keyof Draft, value: string) {
    setDraft((previous) => ({ ...previous, [field]: value }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (saving.isPending) return;
    const result = validate(draft);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    saving.mutate(result.details);
  }

  return {
    draft,
    setField,
    errors,
    // Still busy after success: the caller is closing the form.
    saving: saving.isPending || saving.isSuccess,
    /** Something was typed that is not saved. */
    changed: !saving.isSuccess && JSON.stringify(draft) !== JSON.stringify(start),
    submit,
  };
}
