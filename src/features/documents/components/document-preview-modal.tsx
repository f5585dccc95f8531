import { Download } from 'lucide-react';
import { useState } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LOAD_ERROR } from '../api/document-preview.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { useDocumentPreview } from '../hooks/use-document-preview.ts';
import { useDownloadDocument } from '../hooks/use-download-document.ts';
import { DocumentHistory } from './document-history.tsx';
import { DocumentMeta } from './document-meta.tsx';
import { DocumentVersionsTab } from './document-versions-tab.tsx';
import { PreviewBody } from './preview-body.tsx';
import { PreviewErrorPanel } from './preview-error-panel.tsx';

/** What the preview needs of a document. */
export type PreviewableDocument = Pick<
  DocumentRecord,
  'name' | 'category' | 'size' | 'created_at' | 'file_path'
> & {
  /** With them, the modal also offers the document's Versions and History. */
  id?: string;
  organization_id?: string;
};

type Tab = 'preview' | 'versions' | 'history';
const TABS: [Tab, string][] = [
  ['preview', 'Preview'],
  ['versions', 'Versions'],
  ['history', 'History'],
];

export interface DocumentPreviewModalProps {
  document: PreviewableDocument;
  onClose: () => void;
}

/**
 * The preview of one stored document (spec §2 Preview modal): header with name, category,
 * size and created date, Download and Close; the body by file kind (pdf, image, video, audio,
 * text; office files and others offer a download). Shared with the category document lists.
 * Mount it with `key={document.file_path}` when switching documents. Given the document's id,
 * further tabs show its earlier Versions (downloadable, restorable) and its History (every
 * change the database recorded).
 */
export function DocumentPreviewModal({ document, onClose }: DocumentPreviewModalProps) {
  const [tab, setTab] = useState<Tab>('preview');
  const preview = useDocumentPreview(document.name, document.file_path);
  const download = useDownloadDocument();
  const onDownload = () => void download(document);

  return (
    <Modal
      size="full"
      onClose={onClose}
      title={
        <>
          <span className="block break-all">{document.name}</span>
          <DocumentMeta
            category={document.category}
            size={document.size}
            createdAt={document.created_at}
          />
        </>
      }
      headerActions={
        <Button variant="secondary" size="sm" icon={Download} onClick={onDownload}>
          Download
        </Button>
      }
    >
      {document.id && (
        <div
          role="tablist"
          aria-label="Document"
          className="mb-4 flex gap-1 border-b border-gray-200"
        >
          {TABS.map(([value, label]) => (
            <button
              key={value}
              type="button"
              role="tab"
              id={`document-tab-${value}`}
              aria-selected={tab === value}
              aria-controls={`document-panel-${value}`}
              className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium ${
                tab === value
                  ? 'border-primary-600 text-primary-700'
                  : 'border-transparent text-gray-600 hover:text-gray-900'
              }`}
              onClick={() => setTab(value)}
            >
              {label}
            </button>
          ))}
        </div>
      )}
      {tab === 'history' && document.id ? (
        <div role="tabpanel" id="document-panel-history" aria-labelledby="document-tab-history">
          <DocumentHistory documentId={document.id} />
        </div>
      ) : tab === 'versions' && document.id && document.organization_id ? (
        <div role="tabpanel" id="document-panel-versions" aria-labelledby="document-tab-versions">
          <DocumentVersionsTab
            document={{
              id: document.id,
              organization_id: document.organization_id,
              name: document.name,
            }}
          />
        </div>
      ) : (
        <div role="tabpanel" id="document-panel-preview" aria-labelledby="document-tab-preview">
          {preview.status === 'loading' && <Spinner label="Loading preview..." />}
          {preview.status === 'error' && (
            <PreviewErrorPanel message={preview.error ?? LOAD_ERROR} onDownload={onDownload} />
          )}
          {preview.status === 'ready' && (
            <PreviewBody
              name={document.name}
              preview={preview}
              onDisplayError={preview.reportDisplayError}
              onDownload={onDownload}
            />
          )}
        </div>
      )}
    </Modal>
  );
}
