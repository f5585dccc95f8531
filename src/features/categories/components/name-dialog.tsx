import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FormField, Input, useFormProblems } from '../../../components/ui/form-field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';

/** The longest name a category or group may have (the database's limit). */
export const MAX_NAME_LENGTH = 100;

/** Why a typed name cannot be saved, or null. */
export function nameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'Please enter a name.';
  if (trimmed.length > MAX_NAME_LENGTH) return `A name has at most ${MAX_NAME_LENGTH} characters.`;
  return null;
}

/**
 * Renaming a category or a group: one field with the current name, Cancel and Save. The
 * dialog stays open until the save succeeded (a refusal is shown by the failure notice).
 */
export function NameDialog({
  title,
  label,
  initialName,
  saving,
  onSave,
  onClose,
}: {
  title: string;
  label: string;
  initialName: string;
  saving: boolean;
  onSave: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(initialName);
  const { formRef, problems, report, clear } = useFormProblems<'name'>();
  return (
    <Modal title={title} onClose={onClose} size="md" dismissible={!saving}>
      <form
        ref={formRef}
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const problem = nameProblem(name);
          if (report({ name: problem ?? undefined })) return;
          onSave(name.trim());
        }}
      >
        <FormField label={label} required error={problems?.name}>
          {(props) => (
            <Input
              {...props}
              value={name}
              maxLength={MAX_NAME_LENGTH}
              autoComplete="off"
              onChange={(event) => {
                setName(event.target.value);
                clear('name');
              }}
            />
          )}
        </FormField>
        <DialogActions>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" busy={saving} busyLabel="Saving...">
            Save
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}
