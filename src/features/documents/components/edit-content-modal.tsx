import { AlertTriangle, Download, FileX, Save } from 'lucide-react';
import { useId, useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { isTextEditable, mimeTypeFor } from '../../../lib/file-kinds.ts';
import { saveDocumentText } from '../api/document-content.ts';
import type { DocumentRecord } from '../api/document.ts';
import { saveBlobAs } from '../api/download-document.ts';
import { useDocumentText } from '../hooks/use-document-text.ts';
import { DocumentMeta } from './document-meta.tsx';

export interface EditContentModalProps {
  document: DocumentRecord;
  onClose: () => void;
  /** Called with the saved row (its new size) after each successful save. */
  onSaved: (document: DocumentRecord) => void;
}

const button =
  'inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-50';

/**
 * A plain text editor for text-based documents (spec §2 Edit-content modal): Download, Save and
 * Close. Saving writes the text over the same stored file. Other files show File Not Editable.
 */
export function EditContentModal({ document, onClose, onSaved }: EditContentModalProps) {
  const editable = isTextEditable(document.name);
  const loaded = useDocumentText(document.file_path, editable);
  const { confirm } = useFeedback();
  const editorId = useId();
  // The stored text is the loaded one until a save replaces it; `edited` is null until the
  // user types.
  const [savedText, setSavedText] = useState<string | null>(null);
  const [edited, setEdited] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [savedOnce, setSavedOnce] = useState(false);
  const stored = savedText ?? loaded.text;
  const draft = edited ?? stored;
  const dirty = edited !== null && edited !== stored;

  async function save() {
    setSaving(true);
    setSaveError(null);
    try {
      const row = await saveDocumentText(document, draft);
      setSavedText(draft);
      setSavedOnce(true);
      onSaved(row);
    } catch {
      setSaveError('Failed to save document');
    } finally {
      setSaving(false);
    }
  }

  async function close() {
    if (saving) return;
    if (dirty && !(await confirm('You have unsaved changes. Close without saving?'))) return;
    onClose();
  }

  function download() {
    saveBlobAs(new Blob([draft], { type: mimeTypeFor(document.name) }), document.name);
  }

  const title = (
    <>
      <span className="block break-all">{document.name}</span>
      <DocumentMeta
        category={document.category}
        size={document.size}
        createdAt={document.created_at}
      />
    </>
  );

  if (!editable) {
    return (
      <Modal title={title} onClose={onClose} size="md">
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
      title={title}
      onClose={() => void close()}
      size="full"
      dismissible={!saving}
      headerActions={
        loaded.status === 'ready' && (
          <>
            <button
              type="button"
              onClick={download}
              className={`${button} border border-gray-300 text-gray-700 hover:bg-gray-50`}
            >
              <Download className="h-4 w-4" aria-hidden="true" />
              Download
            </button>
            <button
              type="button"
              onClick={() => void save()}
              disabled={saving || !dirty}
              className={`${button} bg-blue-600 text-white hover:bg-blue-700`}
            >
              <Save className="h-4 w-4" aria-hidden="true" />
              {saving ? 'Saving...' : 'Save'}
            </button>
          </>
        )
      }
    >
      {loaded.status === 'loading' && <Spinner label="Loading document..." />}
      {loaded.status === 'error' && (
        <div
          role="alert"
          className="flex flex-col items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-6 py-10 text-center"
        >
          <AlertTriangle className="h-10 w-10 text-red-500" aria-hidden="true" />
          <h3 className="text-base font-semibold text-gray-900">Error Loading Document</h3>
          <p className="text-sm text-gray-700">{loaded.error}</p>
        </div>
      )}
      {loaded.status === 'ready' && (
        <div className="flex flex-col gap-2">
          {saveError && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
              {saveError}
            </p>
          )}
          <label htmlFor={editorId} className="sr-only">
            Content of {document.name}
          </label>
          <textarea
            id={editorId}
            value={draft}
            onChange={(event) => setEdited(event.target.value)}
            readOnly={saving}
            spellCheck={false}
            className="h-[60vh] w-full resize-y rounded-md border border-gray-300 p-3 font-mono text-sm text-gray-900 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 focus:outline-none"
          />
          <p role="status" className="text-xs text-gray-500">
            {dirty ? 'Unsaved changes' : savedOnce ? 'All changes saved' : ''}
          </p>
        </div>
      )}
    </Modal>
  );
}
