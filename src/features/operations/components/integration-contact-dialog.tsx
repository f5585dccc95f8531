import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { Modal } from '../../../components/modal.tsx';
import type { ContactDetails } from '../api/save-integration-contact.ts';
import { CONTACT_FIELDS, draftFromContact, validateContactDraft } from '../lib/contact-draft.ts';
import type { IntegrationContact, IntegrationView } from '../lib/integration-view.ts';
import { useDraftForm } from '../hooks/use-draft-form.ts';
import { FormField, fieldBorder, fieldClass } from './form-field.tsx';

export interface IntegrationContactDialogProps {
  integration: IntegrationView;
  contact: IntegrationContact | undefined;
  /** Admins edit; other members view. */
  canEdit: boolean;
  onSave: (contact: ContactDetails) => Promise<void>;
  onClose: () => void;
}

function ContactValue({ field, value }: { field: keyof ContactDetails; value: string }) {
  if (field === 'email') {
    return (
      <a href={`mailto:${value}`} className="text-blue-700 underline hover:text-blue-900">
        {value}
      </a>
    );
  }
  if (field === 'phone') {
    return (
      <a
        href={`tel:${value.replace(/[^\d+]/g, '')}`}
        className="text-blue-700 underline hover:text-blue-900"
      >
        {value}
      </a>
    );
  }
  return <span className="whitespace-pre-line">{value}</span>;
}

/**
 * The saved contact of an integration (product-spec §3): name, title, e-mail, phone,
 * Department/Team and notes. Every member views it; admins edit it.
 */
export function IntegrationContactDialog({
  integration,
  contact,
  canEdit,
  onSave,
  onClose,
}: IntegrationContactDialogProps) {
  const [editing, setEditing] = useState(canEdit && !contact);
  const { draft, setField, errors, serverError, saving, submit } = useDraftForm(
    () => draftFromContact(contact),
    validateContactDraft,
    onSave,
  );

  const filled = CONTACT_FIELDS.filter(({ field }) => contact?.[field]);

  return (
    <Modal title={`${integration.name} Contact`} onClose={onClose} dismissible={!saving}>
      {editing ? (
        <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
          {CONTACT_FIELDS.map(({ field, label }) => (
            <FormField key={field} label={label} error={errors[field]}>
              {(props) =>
                field === 'notes' ? (
                  <textarea
                    {...props}
                    rows={3}
                    value={draft.notes}
                    onChange={(event) => setField('notes', event.target.value)}
                    className={`${fieldClass} ${fieldBorder(errors.notes)}`}
                  />
                ) : (
                  <input
                    {...props}
                    type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
                    autoComplete="off"
                    value={draft[field]}
                    onChange={(event) => setField(field, event.target.value)}
                    className={`${fieldClass} ${fieldBorder(errors[field])}`}
                  />
                )
              }
            </FormField>
          ))}
          <p className="text-xs text-gray-500">
            Everyone in your organization can see this contact. Clear every field to remove it.
          </p>
          {serverError && (
            <p
              role="alert"
              className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
            >
              Could not save the contact: {serverError}
            </p>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={() => (contact ? setEditing(false) : onClose())}
              disabled={saving}
              className="rounded-md border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-50"
            >
              Cancel
            </button>
            <button
              type="submit"
              disabled={saving}
              className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-50"
            >
              {saving ? 'Saving...' : 'Save Contact'}
            </button>
          </div>
        </form>
      ) : (
        <div className="space-y-4">
          {filled.length > 0 ? (
            <dl className="space-y-3 text-sm">
              {filled.map(({ field, label }) => (
                <div key={field}>
                  <dt className="font-medium text-gray-600">{label}</dt>
                  <dd className="text-gray-900">
                    <ContactValue field={field} value={contact![field]!} />
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="text-sm text-gray-600">
              No contact has been saved for this integration yet.
            </p>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={onClose}
              className="rounded-md border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50"
            >
              Done
            </button>
            {canEdit && (
              <button
                type="button"
                onClick={() => setEditing(true)}
                className="inline-flex items-center justify-center gap-1.5 rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700"
              >
                <Pencil className="h-4 w-4" aria-hidden="true" />
                Edit Contact
              </button>
            )}
          </div>
        </div>
      )}
    </Modal>
  );
}
