import { Download } from 'lucide-react';
import { useState } from 'react';
import { Modal } from '../../../components/ui/modal.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Tabs, type TabItem } from '../../../components/ui/tabs.tsx';
import { LOAD_ERROR } from '../api/document-preview.ts';
import { useDocumentAccess } from '../../../lib/document-categories.ts';
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
const TABS: readonly TabItem<Tab>[] = [
  { value: 'preview', label: 'Preview' },
  { value: 'versions', label: 'Versions' },
  { value: 'history', label: 'History' },
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
  const shown = useDocumentPreview(document.name, document.file_path);
  const download = useDownloadDocument();
  const access = useDocumentAccess();
  const onDownload = () => download(document);
  const preview = (
    <>
      {shown.status === 'loading' && <Spinner label="Loading preview..." />}
      {shown.status === 'error' && (
        <PreviewErrorPanel message={shown.error ?? LOAD_ERROR} onDownload={onDownload} />
      )}
      {shown.status === 'ready' && (
        <PreviewBody
          name={document.name}
          preview={shown}
          onDisplayError={shown.reportDisplayError}
          onDownload={onDownload}
        />
      )}
    </>
  );

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
            restricted={access.isRestricted(document.category)}
          />
        </>
      }
      headerActions={
        <Button variant="secondary" size="sm" icon={Download} onClick={onDownload}>
          Download
        </Button>
      }
    >
      {document.id && document.organization_id ? (
        <Tabs label="Document" tabs={TABS} selected={tab} onSelect={setTab}>
          {tab === 'history' ? (
            <DocumentHistory documentId={document.id} />
          ) : tab === 'versions' ? (
            <DocumentVersionsTab
              document={{
                id: document.id,
                organization_id: document.organization_id,
                name: document.name,
              }}
              canRestore={access.mayEdit(document.category)}
            />
          ) : (
            preview
          )}
        </Tabs>
      ) : (
        preview
      )}
    </Modal>
  );
}
