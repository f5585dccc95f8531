import { useState } from 'react';
import type { ContactDetails } from '../api/save-integration-contact.ts';
import type { IntegrationDetails } from '../lib/integration-draft.ts';
import type { IntegrationContact, IntegrationView } from '../lib/integration-view.ts';
import { IntegrationCard } from './integration-card.tsx';
import { IntegrationContactDialog } from './integration-contact-dialog.tsx';
import { IntegrationEditDialog } from './integration-edit-dialog.tsx';

export interface IntegrationGridProps {
  integrations: readonly IntegrationView[];
  contacts: ReadonlyMap<string, IntegrationContact>;
  canEdit: boolean;
  canEditContacts: boolean;
  /** Open the edit dialog for a new integration (Add Integration). */
  adding: boolean;
  onAddingDone: () => void;
  onSave: (target: IntegrationView | null, details: IntegrationDetails) => Promise<void>;
  onRemove: (target: IntegrationView) => Promise<void>;
  onSaveContact: (integrationKey: string, contact: ContactDetails) => Promise<void>;
}

/** The integration cards of a category with their edit and contact dialogs. */
export function IntegrationGrid({
  integrations,
  contacts,
  canEdit,
  canEditContacts,
  adding,
  onAddingDone,
  onSave,
  onRemove,
  onSaveContact,
}: IntegrationGridProps) {
  const [editingKey, setEditingKey] = useState<string | null>(null);
  const [contactKey, setContactKey] = useState<string | null>(null);
  const editing = integrations.find(({ key }) => key === editingKey) ?? null;
  const contactOf = integrations.find(({ key }) => key === contactKey) ?? null;

  const closeEditor = () => {
    setEditingKey(null);
    onAddingDone();
  };

  return (
    <>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Integrations">
        {integrations.map((integration) => (
          <li key={integration.key}>
            <IntegrationCard
              integration={integration}
              contact={contacts.get(integration.key)}
              canEdit={canEdit}
              canEditContact={canEditContacts}
              onEdit={(target) => setEditingKey(target.key)}
              onOpenContact={(target) => setContactKey(target.key)}
            />
          </li>
        ))}
      </ul>

      {canEdit && (adding || editing) && (
        <IntegrationEditDialog
          key={editing?.key ?? 'new'}
          integration={adding ? null : editing}
          onSave={async (details) => {
            await onSave(adding ? null : editing, details);
            closeEditor();
          }}
          onRemove={
            !adding && editing && (editing.source === 'custom' || editing.customized)
              ? async () => {
                  await onRemove(editing);
                  closeEditor();
                }
              : undefined
          }
          onClose={closeEditor}
        />
      )}
      {contactOf && (
        <IntegrationContactDialog
          key={contactOf.key}
          integration={contactOf}
          contact={contacts.get(contactOf.key)}
          canEdit={canEditContacts}
          onSave={async (contact) => {
            await onSaveContact(contactOf.key, contact);
            setContactKey(null);
          }}
          onClose={() => setContactKey(null)}
        />
      )}
    </>
  );
}
