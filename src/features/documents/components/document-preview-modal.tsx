import { Download } from 'lucide-react';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { LOAD_ERROR } from '../api/document-preview.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { useDocumentPreview } from '../hooks/use-document-preview.ts';
import { useDownloadDocument } from '../hooks/use-download-document.ts';
import { DocumentMeta } from './document-meta.tsx';
import { PreviewBody } from './preview-body.tsx';
import { PreviewErrorPanel } from './preview-error-panel.tsx';

/** What the preview needs of a document. */
export type PreviewableDocument = Pick<
  DocumentRecord,
  'name' | 'category' | 'size' | 'created_at' | 'file_path'
>;

export interface DocumentPreviewModalProps {
  document: PreviewableDocument;
  onClose: () => void;
}

/**
 * The preview of one stored document (spec §2 Preview modal): header with name, category,
 * size and created date, Download and Close; the body by file kind (pdf, image, video, audio,
 * text; office files and others offer a download). Shared with the category document lists.
 * Mount it with `key={document.file_path}` when switching documents.
 */
export function DocumentPreviewModal({ document, onClose }: DocumentPreviewModalProps) {
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
    </Modal>
  );
}
