import { Upload } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { Spinner } from '../../components/spinner.tsx';
import { paths } from '../../config/paths.ts';
import type { DocumentRecord } from './api/document.ts';
import { DocumentFilters } from './components/document-filters.tsx';
import { DocumentPreviewModal } from './components/document-preview-modal.tsx';
import { DocumentsEmpty } from './components/documents-empty.tsx';
import { DocumentsLoadError } from './components/documents-load-error.tsx';
import { DocumentsTable } from './components/documents-table.tsx';
import { EditContentModal } from './components/edit-content-modal.tsx';
import { EditPropertiesModal } from './components/edit-properties-modal.tsx';
import type { DocumentAction } from './components/row-actions.tsx';
import { useDeleteDocument } from './hooks/use-delete-document.ts';
import { ALL_CATEGORIES, useDocumentFilter } from './hooks/use-document-filter.ts';
import { useDocumentList } from './hooks/use-document-list.ts';
import { useDownloadDocument } from './hooks/use-download-document.ts';

type OpenModal = { kind: 'view' | 'properties' | 'content'; document: DocumentRecord } | null;

/** /documents: search, filter and manage the organisation's documents (spec §2). */
export function DocumentsPage() {
  const list = useDocumentList();
  const { removeRow, replaceRow } = list;
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState(ALL_CATEGORIES);
  const { filtered, appliedSearch, appliedCategory } = useDocumentFilter(
    list.rows,
    search,
    category,
  );
  const [modal, setModal] = useState<OpenModal>(null);
  const download = useDownloadDocument();
  const deleteWithConfirmation = useDeleteDocument();

  const onAction = useCallback(
    (action: DocumentAction, document: DocumentRecord) => {
      if (action === 'download') void download(document);
      else if (action === 'delete') {
        void deleteWithConfirmation(document).then((deleted) => deleted && removeRow(document.id));
      } else setModal({ kind: action, document });
    },
    [download, deleteWithConfirmation, removeRow],
  );
  const closeModal = useCallback(() => setModal(null), []);
  const filtering = appliedSearch.trim() !== '' || appliedCategory !== ALL_CATEGORIES;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-gray-900">Documents</h1>
          <p className="text-sm text-gray-600">
            Search, preview and manage your organization’s documents.
          </p>
        </div>
        <Link
          to={paths.upload}
          className="inline-flex items-center justify-center gap-2 rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700"
        >
          <Upload className="h-4 w-4" aria-hidden="true" />
          Upload Documents
        </Link>
      </div>

      <DocumentFilters
        search={search}
        category={category}
        onSearchChange={setSearch}
        onCategoryChange={setCategory}
      />

      {list.status === 'loading' && <Spinner label="Loading documents..." />}
      {list.status === 'error' && (
        <DocumentsLoadError message={list.error ?? 'Unknown error'} onRetry={list.reload} />
      )}
      {list.status === 'ready' && (
        <>
          <p role="status" className="text-sm text-gray-600">
            {filtering
              ? `Showing ${filtered.length.toLocaleString()} of ${list.total.toLocaleString()} documents`
              : `${list.total.toLocaleString()} ${list.total === 1 ? 'document' : 'documents'}`}
            {list.loadingMore && ' (loading the rest…)'}
          </p>
          {list.error && <DocumentsLoadError message={list.error} onRetry={list.reload} />}
          {/* The search text the results are for: lets a measurement see when they caught up. */}
          <div data-applied-search={appliedSearch}>
            {filtered.length > 0 ? (
              <DocumentsTable documents={filtered} onAction={onAction} />
            ) : (
              !list.loadingMore && <DocumentsEmpty filtered={list.rows.length > 0} />
            )}
          </div>
        </>
      )}

      {modal?.kind === 'view' && (
        <DocumentPreviewModal
          key={modal.document.id}
          document={modal.document}
          onClose={closeModal}
        />
      )}
      {modal?.kind === 'properties' && (
        <EditPropertiesModal
          key={modal.document.id}
          document={modal.document}
          onClose={closeModal}
          onSaved={replaceRow}
        />
      )}
      {modal?.kind === 'content' && (
        <EditContentModal
          key={modal.document.id}
          document={modal.document}
          onClose={closeModal}
          onSaved={replaceRow}
        />
      )}
    </div>
  );
}
