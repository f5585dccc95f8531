import { Download, FileX, Save } from 'lucide-react';
import { useId, useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { controlClass } from '../../../components/ui/form-field.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { isTextEditable, mimeTypeFor } from '../../../lib/file-kinds.ts';
import { useDocumentText, useSaveDocumentText } from '../api/document-content.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { saveBlobAs } from '../api/download-document.ts';
import { DocumentMeta } from './document-meta.tsx';

export interface EditContentModalProps {
  document: DocumentRecord;
  onClose: () => void;
  /** Called with the saved row (its new size) after each successful save. */
  onSaved?: (document: DocumentRecord) => void;
}

/** Asked before the editor closes, or the page is left, with typed text not saved. */
export const UNSAVED_TEXT_QUESTION = 'You have unsaved changes. Close without saving?';

function Title({ document }: { document: DocumentRecord }) {
  return (
    <>
      <span className="block break-all">{document.name}</span>
      <DocumentMeta
        category={document.category}
        size={document.size}
        createdAt={document.created_at}
      />
    </>
  );
}

/**
 * A plain text editor for text-based documents (spec §2 Edit-content modal): Download, Save and
 * Close. Saving stores the text as a new version (the previous file stays as an earlier
 * version); the header then shows the saved
 * size. Other files show File Not Editable.
 */
export function EditContentModal({ document, onClose, onSaved }: EditContentModalProps) {
  const editable = isTextEditable(document.name);
  const loaded = useDocumentText(document.file_path, editable);
  const save = useSaveDocumentText(document);
  const { confirm } = useFeedback();
  const editorId = useId();
  // The stored text is the loaded one until a save replaces it; `edited` is null until the
  // user types.
  const [savedText, setSavedText] = useState<string | null>(null);
  const [edited, setEdited] = useState<string | null>(null);
  const stored = savedText ?? loaded.data ?? '';
  const draft = edited ?? stored;
  const dirty = edited !== null && edited !== stored;
  // What is stored now: after a save, the saved row (its new size), not the one opened.
  const current = save.data ?? document;
  useLeaveGuard(dirty, UNSAVED_TEXT_QUESTION);

  function saveDraft() {
    const text = draft;
    save.mutate(text, {
      onSuccess: (row) => {
        setSavedText(text);
        onSaved?.(row);
      },
    });
  }

  async function close() {
    if (save.isPending) return;
    if (
      dirty &&
      !(await confirm(UNSAVED_TEXT_QUESTION, {
        confirmLabel: 'Discard changes',
        destructive: true,
      }))
    ) {
      return;
    }
    onClose();
  }

  function download() {
    saveBlobAs(new Blob([draft], { type: mimeTypeFor(document.name) }), document.name);
  }

  if (!editable) {
    return (
      <Modal title={<Title document={current} />} onClose={onClose} size="md">
        <div className="flex flex-col items-center gap-3 py-8 text-center">
          <FileX className="h-10 w-10 text-gray-400" aria-hidden="true" />
          <h3 className="text-base font-semibold text-gray-900">File Not Editable</h3>
          <p className="text-sm text-gray-600">
            Only text-based files (txt, md, csv, etc.) can be edited.
          </p>
        </div>
      </Modal>
    );
  }

  return (
    <Modal
      title={<Title document={current} />}
      onClose={() => void close()}
      size="full"
      dismissible={!save.isPending}
      headerActions={
        loaded.isSuccess && (
          <>
            <Button variant="secondary" size="sm" icon={Download} onClick={download}>
              Download
            </Button>
            <Button
              size="sm"
              icon={Save}
              onClick={saveDraft}
              disabled={!dirty}
              busy={save.isPending}
              busyLabel="Saving..."
            >
              Save
            </Button>
          </>
        )
      }
    >
      {loaded.isPending && <Spinner label="Loading document..." />}
      {loaded.isError && (
        <ErrorPanel layout="centered" heading title="Error Loading Document">
          {errorMessage(loaded.error, 'Failed to load document content')}
        </ErrorPanel>
      )}
      {loaded.isSuccess && (
        <div className="flex flex-col gap-2">
          <label htmlFor={editorId} className="sr-only">
            Content of {document.name}
          </label>
          <textarea
            id={editorId}
            value={draft}
            onChange={(event) => setEdited(event.target.value)}
            readOnly={save.isPending}
            spellCheck={false}
            className={`${controlClass()} h-[60vh] resize-y p-3 font-mono text-gray-900`}
          />
          <p role="status" className="text-xs text-gray-500">
            {dirty ? 'Unsaved changes' : save.isSuccess ? 'All changes saved' : ''}
          </p>
        </div>
      )}
    </Modal>
  );
}
