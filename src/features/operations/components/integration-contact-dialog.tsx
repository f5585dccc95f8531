import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { Modal } from '../../../components/ui/modal.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FormField, Input, Textarea } from '../../../components/ui/form-field.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import type { ContactDetails } from '../api/save-integration-contact.ts';
import { CONTACT_FIELDS, draftFromContact, validateContactDraft } from '../lib/contact-draft.ts';
import type { IntegrationContact, IntegrationView } from '../lib/integration-view.ts';
import { useDraftForm } from '../hooks/use-draft-form.ts';

/** Asked before the page is left with a contact typed but not saved. */
export const UNSAVED_CONTACT_QUESTION =
  'You have changed this contact without saving it. Leave without saving?';

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
      <a href={`mailto:${value}`} className="text-primary-700 underline hover:text-primary-900">
        {value}
      </a>
    );
  }
  if (field === 'phone') {
    return (
      <a
        href={`tel:${value.replace(/[^\d+]/g, '')}`}
        className="text-primary-700 underline hover:text-primary-900"
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
  const { draft, setField, errors, saving, changed, submit } = useDraftForm(
    () => draftFromContact(contact),
    validateContactDraft,
    onSave,
    'Could not save the contact',
  );
  useLeaveGuard(editing && changed, UNSAVED_CONTACT_QUESTION);

  const filled = CONTACT_FIELDS.filter(({ field }) => contact?.[field]);

  return (
    <Modal title={`${integration.name} Contact`} onClose={onClose} dismissible={!saving}>
      {editing ? (
        <form onSubmit={submit} noValidate className="space-y-4">
          {CONTACT_FIELDS.map(({ field, label }) => (
            <FormField key={field} label={label} error={errors[field]}>
              {(props) =>
                field === 'notes' ? (
                  <Textarea
                    {...props}
                    rows={3}
                    value={draft.notes}
                    onChange={(event) => setField('notes', event.target.value)}
                  />
                ) : (
                  <Input
                    {...props}
                    type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
                    autoComplete="off"
                    value={draft[field]}
                    onChange={(event) => setField(field, event.target.value)}
                  />
                )
              }
            </FormField>
          ))}
          <p className="text-xs text-gray-500">
            Everyone in your organization can see this contact. Clear every field to remove it.
          </p>
          <DialogActions className="">
            <Button
              variant="secondary"
              onClick={() => (contact ? setEditing(false) : onClose())}
              disabled={saving}
            >
              Cancel
            </Button>
            <Button type="submit" busy={saving} busyLabel="Saving...">
              Save Contact
            </Button>
          </DialogActions>
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
          <DialogActions className="">
            <Button variant="secondary" onClick={onClose}>
              Done
            </Button>
            {canEdit && (
              <Button icon={Pencil} onClick={() => setEditing(true)}>
                Edit Contact
              </Button>
            )}
          </DialogActions>
        </div>
      )}
    </Modal>
  );
}
