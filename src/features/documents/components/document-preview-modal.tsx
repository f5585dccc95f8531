import { Download } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Modal } from '../../../components/ui/modal.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Tabs, type TabItem } from '../../../components/ui/tabs.tsx';
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

// Loaded when opened: the dashboard's JavaScript carries the preview, within its budget
// (tests/build/bundle-budget.test.ts).
const ShareLinksTab = lazy(async () => ({
  default: (await import('./share-links-tab.tsx')).ShareLinksTab,
}));

type Tab = 'preview' | 'versions' | 'history' | 'share';
const TABS: readonly TabItem<Tab>[] = [
  { value: 'preview', label: 'Preview' },
  { value: 'versions', label: 'Versions' },
  { value: 'history', label: 'History' },
  { value: 'share', label: 'Share' },
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
 * further tabs show its earlier Versions (downloadable, restorable), its History (every
 * change the database recorded) and its share links (Share).
 */
export function DocumentPreviewModal({ document, onClose }: DocumentPreviewModalProps) {
  const [tab, setTab] = useState<Tab>('preview');
  const shown = useDocumentPreview(document.name, document.file_path);
  const download = useDownloadDocument();
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
          ) : tab === 'share' ? (
            <Suspense fallback={<Spinner />}>
              <ShareLinksTab documentId={document.id} />
            </Suspense>
          ) : tab === 'versions' ? (
            <DocumentVersionsTab
              document={{
                id: document.id,
                organization_id: document.organization_id,
                name: document.name,
              }}
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
