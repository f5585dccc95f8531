import { useState } from 'react';
import {
  CategoryDocumentList,
  type CategoryDocumentListProps,
} from '../../features/category-documents/components/category-document-list.tsx';
import { DocumentPreviewModal } from '../../features/documents/components/document-preview-modal.tsx';
import { useDownloadDocument } from '../../features/documents/hooks/use-download-document.ts';
import type { DocumentRecord } from '../../lib/documents.ts';

/**
 * The document list at the bottom of a category or department page, its View and Download
 * wired to the documents feature's preview and download.
 */
export function CategoryDocumentsSection({
  title,
  match,
  uploadTo,
}: Pick<CategoryDocumentListProps, 'title' | 'match' | 'uploadTo'>) {
  const download = useDownloadDocument();
  const [previewing, setPreviewing] = useState<DocumentRecord | null>(null);
  return (
    <>
      <CategoryDocumentList
        title={title}
        match={match}
        uploadTo={uploadTo}
        onView={setPreviewing}
        onDownload={(document) => void download(document)}
      />
      {previewing && (
        <DocumentPreviewModal
          key={previewing.file_path}
          document={previewing}
          onClose={() => setPreviewing(null)}
        />
      )}
    </>
  );
}
