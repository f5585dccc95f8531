import { useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { Modal } from '../../../components/modal.tsx';
import { messageOf, type DocumentRecord } from '../api/document.ts';
import { updateDocumentProperties } from '../api/update-document.ts';
import { hasCategory, toDocumentProperties, toPropertyInput } from '../utils/property-values.ts';
import { DocumentPropertyFields } from './document-property-fields.tsx';

export interface EditPropertiesModalProps {
  document: DocumentRecord;
  onClose: () => void;
  /** Called with the saved row; the modal closes itself afterwards. */
  onSaved: (document: DocumentRecord) => void;
}

/** Category, expiry date, tags and description of one document (spec §2 Edit-properties modal). */
export function EditPropertiesModal({ document, onClose, onSaved }: EditPropertiesModalProps) {
  const { alert } = useFeedback();
  const [values, setValues] = useState(() => toPropertyInput(document));
  const [saving, setSaving] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!hasCategory(values)) {
      await alert('Please select a category.');
      return;
    }
    setSaving(true);
    try {
      const saved = await updateDocumentProperties(document.id, toDocumentProperties(values));
      onSaved(saved);
      onClose();
    } catch (error) {
      setSaving(false);
      await alert(`Failed to update document: ${messageOf(error, 'Unknown error')}`);
    }
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
      dismissible={!saving}
    >
      <form onSubmit={submit} noValidate>
        <DocumentPropertyFields values={values} onChange={setValues} disabled={saving} />
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={onClose}
            disabled={saving}
            className="rounded-md border border-gray-300 px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-50"
          >
            Cancel
          </button>
          <button
            type="submit"
            disabled={saving}
            className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-60"
          >
            {saving ? 'Saving...' : 'Save Changes'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
