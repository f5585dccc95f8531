import { Download, FileUp } from 'lucide-react';
import { lazy, Suspense, useState, type DragEvent } from 'react';
import { Modal } from '../../../components/ui/modal.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Tabs, type TabItem } from '../../../components/ui/tabs.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { LOAD_ERROR } from '../api/document-preview.ts';
import { useDocumentAccess } from '../../../lib/document-categories.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { useDocumentPreview } from '../hooks/use-document-preview.ts';
import { useDownloadDocument } from '../hooks/use-download-document.ts';
import { DocumentHistory } from './document-history.tsx';
import { DocumentMeta } from './document-meta.tsx';
import { DocumentVersionsTab } from './document-versions-tab.tsx';
import { NewVersionForm } from './new-version-form.tsx';
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
// A Viewer sends nothing outside (share links need a member who may change things).
const VIEWER_TABS = TABS.filter((item) => item.value !== 'share');

export interface DocumentPreviewModalProps {
  document: PreviewableDocument;
  /** The tab it opens on: the preview, or Share (a row's Share action). */
  initialTab?: 'preview' | 'share';
  onClose: () => void;
}

/** Whether a drag carries files (not text or a link dragged from the page). */
const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/**
 * The preview of one stored document (spec §2 Preview modal): header with name, category,
 * size and created date, Download and Close; the body by file kind (pdf, image, video, audio,
 * text; office files and others offer a download). Shared with the category document lists.
 * Mount it with `key={document.file_path}` when switching documents. Given the document's id,
 * further tabs show its earlier Versions (downloadable, restorable), its History (every
 * change the database recorded) and its share links (Share). A new version of the file can be
 * chosen there, or dropped onto the preview (issue 25).
 */
export function DocumentPreviewModal({
  document: given,
  initialTab = 'preview',
  onClose,
}: DocumentPreviewModalProps) {
  const [tab, setTab] = useState<Tab>(initialTab);
  // After a new version the preview shows the new file at once, whoever holds the list.
  const [replaced, setReplaced] = useState<PreviewableDocument | null>(null);
  const document = replaced ?? given;
  // A new version being chosen (the button, or a file dropped onto the preview).
  const [newVersion, setNewVersion] = useState<{ file: File | null } | null>(null);
  const [dragging, setDragging] = useState(false);
  const toast = useToast();
  const shown = useDocumentPreview(document.name, document.file_path);
  const download = useDownloadDocument();
  const access = useDocumentAccess();
  const onDownload = () => download(document);
  const versioned = document.id && document.organization_id ? document : null;
  // A new version is offered only to a member who may edit the document's category.
  const owner = versioned &&
    access.mayEdit(document.category) && {
      id: versioned.id!,
      organization_id: versioned.organization_id!,
    };
  // While the new version's form is open, its own drop zone takes the file.
  const dropHandlers = owner &&
    !newVersion && {
      onDragOver: (event: DragEvent) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setDragging(true);
      },
      onDragLeave: (event: DragEvent) => {
        // Moving onto a child of the preview is not leaving it.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      },
      onDrop: (event: DragEvent) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setDragging(false);
        const [file] = Array.from(event.dataTransfer.files);
        if (!file) return;
        setTab('preview');
        setNewVersion({ file });
      },
    };
  const preview =
    newVersion && owner ? (
      <NewVersionForm
        key={newVersion.file ? `${newVersion.file.name}-${newVersion.file.size}` : 'chosen'}
        document={{ ...owner, name: document.name }}
        initialFile={newVersion.file}
        onCancel={() => setNewVersion(null)}
        onDone={(saved) => {
          setReplaced({ ...document, ...saved });
          setNewVersion(null);
          toast(`A new version of ${document.name} was uploaded.`);
        }}
      />
    ) : (
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
        <>
          {owner && !newVersion && (
            <Button
              variant="secondary"
              size="sm"
              icon={FileUp}
              onClick={() => {
                setTab('preview');
                setNewVersion({ file: null });
              }}
            >
              <span className="max-sm:sr-only">New version</span>
            </Button>
          )}
          {/* On a phone the buttons are their icons (named all the same), leaving the name room. */}
          <Button variant="secondary" size="sm" icon={Download} onClick={onDownload}>
            <span className="max-sm:sr-only">Download</span>
          </Button>
        </>
      }
    >
      <div {...dropHandlers} className="relative">
        {dragging && (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-0 z-10 flex items-center justify-center rounded-lg border-2 border-dashed border-primary-500 bg-primary-50/90 text-sm font-medium text-primary-800"
          >
            Drop the file to upload it as a new version
          </div>
        )}
        {document.id && document.organization_id ? (
          <Tabs
            label="Document"
            tabs={access.readOnly ? VIEWER_TABS : TABS}
            selected={tab}
            onSelect={setTab}
          >
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
                canRestore={access.mayEdit(document.category)}
              />
            ) : (
              preview
            )}
          </Tabs>
        ) : (
          preview
        )}
      </div>
    </Modal>
  );
}
