import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { NewVersionForm } from './new-version-form.tsx';

/** A row's "Upload new version": the form of `NewVersionForm` in a dialog named after the document. */
export function NewVersionDialog({
  document,
  onClose,
}: {
  document: DocumentRecord;
  onClose: () => void;
}) {
  const toast = useToast();
  return (
    <Modal
      title={
        <>
          Upload new version
          <span className="mt-0.5 block text-sm font-normal break-all text-gray-500">
            {document.name}
          </span>
        </>
      }
      onClose={onClose}
      size="lg"
    >
      <NewVersionForm
        document={document}
        onCancel={onClose}
        onDone={() => {
          toast(`A new version of ${document.name} was uploaded.`);
          onClose();
        }}
      />
    </Modal>
  );
}
