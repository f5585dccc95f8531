import { useState, type FormEvent } from 'react';

/** A message per field of the draft that did not pass. */
export type DraftErrors<Draft> = Partial<Record<keyof Draft, string>>;

/**
 * A form edited as a draft of strings, checked by `validate` before `onSave` gets the details:
 * the field errors of the last check, and saving with the server's error. After a failed save
 * the form stays open for another try; after a successful one the caller closes it.
 */
export function useDraftForm<Draft extends object, Details>(
  initial: () => Draft,
  validate: (
    draft: Draft,
  ) => { ok: true; details: Details } | { ok: false; errors: DraftErrors<Draft> },
  onSave: (details: Details) => Promise<void>,
) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<DraftErrors<Draft>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  // The form's controls give strings; a select offers only its field's values.
  function setField(field: keyof Draft, value: string) {
    setDraft((previous) => ({ ...previous, [field]: value }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const result = validate(draft);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setServerError(null);
    setSaving(true);
    try {
      await onSave(result.details);
    } catch (error) {
      setServerError(error instanceof Error ? error.message : String(error));
      setSaving(false);
    }
  }

  return { draft, setField, errors, serverError, saving, submit };
}
