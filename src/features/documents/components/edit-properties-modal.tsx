import { useState } from 'react';
import { Modal } from '../../../components/ui/modal.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { useUpdateDocumentProperties } from '../api/update-document.ts';
import { FormField, Input, useFormProblems } from '../../../components/ui/form-field.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import {
  hasCategory,
  MAX_NAME_LENGTH,
  renamedTo,
  toDocumentProperties,
  toPropertyInput,
} from '../utils/property-values.ts';
import { DocumentPropertyFields } from './document-property-fields.tsx';
import { RenewalFields } from './renewal-fields.tsx';

export interface EditPropertiesModalProps {
  document: DocumentRecord;
  onClose: () => void;
}

/** Asked before the page is left with changed fields not saved. */
export const UNSAVED_PROPERTIES_QUESTION =
  'You have changed the properties of this document without saving them. Leave without saving?';

/**
 * Name, category, expiry date, tags and description of one document (spec §2 Edit-properties
 * modal; the name is Steward's own addition).
 */
export function EditPropertiesModal({ document, onClose }: EditPropertiesModalProps) {
  const { formRef, problems, report, clear } = useFormProblems<'name' | 'category'>();
  const [initial] = useState(() => toPropertyInput(document));
  const [values, setValues] = useState(initial);
  const [name, setName] = useState(document.name);
  const [initialRenewal] = useState(() => ({
    responsible_id: document.responsible_id,
    renewal_in_progress: document.renewal_in_progress,
    renewal_note: document.renewal_note,
  }));
  const [renewal, setRenewal] = useState(initialRenewal);
  const update = useUpdateDocumentProperties();
  const changed =
    name !== document.name ||
    (Object.keys(initial) as (keyof typeof initial)[]).some(
      (key) => values[key] !== initial[key],
    ) ||
    (Object.keys(initialRenewal) as (keyof typeof initialRenewal)[]).some(
      (key) => renewal[key] !== initialRenewal[key],
    );
  useLeaveGuard(changed && !update.isSuccess, UNSAVED_PROPERTIES_QUESTION);

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const newName = renamedTo(name, document.name);
    const invalid = report({
      name: !newName
        ? 'Please enter a name.'
        : newName.length > MAX_NAME_LENGTH
          ? `A name can be at most ${MAX_NAME_LENGTH} characters long.`
          : undefined,
      category: hasCategory(values) ? undefined : 'Please select a category.',
    });
    if (invalid || !newName || !hasCategory(values)) return;
    update.mutate(
      {
        id: document.id,
        properties: {
          name: newName,
          ...toDocumentProperties(values),
          ...renewal,
          renewal_note: renewal.renewal_in_progress ? renewal.renewal_note?.trim() || null : null,
        },
      },
      { onSuccess: onClose },
    );
  }

  return (
    <Modal
      title={
        <>
          Edit Properties
          <span className="mt-0.5 block text-sm font-normal break-all text-gray-500">
            {document.name}
          </span>
        </>
      }
      onClose={onClose}
      size="lg"
      dismissible={!update.isPending}
    >
      <form ref={formRef} onSubmit={submit} noValidate>
        <FormField
          label="Name"
          error={problems?.name}
          hint="The file itself keeps its stored name; its extension stays."
          className="mb-4"
        >
          {(props) => (
            <Input
              {...props}
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                clear('name');
              }}
              disabled={update.isPending}
              maxLength={MAX_NAME_LENGTH}
            />
          )}
        </FormField>
        <DocumentPropertyFields
          values={values}
          onChange={(next) => {
            setValues(next);
            clear('category');
          }}
          disabled={update.isPending}
          categoryError={problems?.category}
          currentCategory={document.category}
        />
        <RenewalFields values={renewal} onChange={setRenewal} disabled={update.isPending} />
        <DialogActions>
          <Button variant="secondary" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" busy={update.isPending} busyLabel="Saving...">
            Save Changes
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}
