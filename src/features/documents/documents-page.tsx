import { Upload } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Spinner } from '../../components/spinner.tsx';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../lib/session.tsx';
import type { DocumentRecord } from './api/document.ts';
import { useDocumentList } from './api/list-documents.ts';
import { DocumentFilters } from './components/document-filters.tsx';
import { DocumentPreviewModal } from './components/document-preview-modal.tsx';
import { DocumentsEmpty } from './components/documents-empty.tsx';
import { DocumentsLoadError } from './components/documents-load-error.tsx';
import { DocumentsTable } from './components/documents-table.tsx';
import { EditContentModal } from './components/edit-content-modal.tsx';
import { EditPropertiesModal } from './components/edit-properties-modal.tsx';
import { OrganizationRequired } from './components/organization-required.tsx';
import type { DocumentAction } from './components/row-actions.tsx';
import { useConfirmedDelete } from './hooks/use-delete-document.ts';
import { ALL_CATEGORIES, useDocumentFilter } from './hooks/use-document-filter.ts';
import { useDownloadDocument } from './hooks/use-download-document.ts';

type OpenModal = { kind: 'view' | 'properties' | 'content'; document: DocumentRecord } | null;

/** /documents: search, filter and manage the organisation's documents (spec §2). */
export function DocumentsPage() {
  const { organization, profileLoading } = useSession();
  if (profileLoading) return <Spinner />;
  if (!organization) return <OrganizationRequired title="Documents" />;
  return <OrganizationDocuments />;
}

function OrganizationDocuments() {
  const list = useDocumentList();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState(ALL_CATEGORIES);
  const { filtered, appliedSearch, appliedCategory } = useDocumentFilter(
    list.rows,
    search,
    category,
  );
  const [modal, setModal] = useState<OpenModal>(null);
  const download = useDownloadDocument();
  const deleteWithConfirmation = useConfirmedDelete();

  const onAction = useCallback(
    (action: DocumentAction, document: DocumentRecord) => {
      if (action === 'download') void download(document);
      else if (action === 'delete') void deleteWithConfirmation(document);
      else setModal({ kind: action, document });
    },
    [download, deleteWithConfirmation],
  );
  const closeModal = useCallback(() => setModal(null), []);
  const filtering = appliedSearch.trim() !== '' || appliedCategory !== ALL_CATEGORIES;
  // The open document as the list holds it now (after a save, the saved row).
  const opened = modal && (list.rows.find((row) => row.id === modal.document.id) ?? modal.document);

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-gray-900">Documents</h1>
          <p className="text-sm text-gray-600">
            Search, preview and manage your organization’s documents.
          </p>
        </div>
        <ButtonLink to={paths.upload} icon={Upload}>
          Upload Documents
        </ButtonLink>
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

      {modal?.kind === 'view' && opened && (
        <DocumentPreviewModal key={opened.id} document={opened} onClose={closeModal} />
      )}
      {modal?.kind === 'properties' && opened && (
        <EditPropertiesModal key={opened.id} document={opened} onClose={closeModal} />
      )}
      {modal?.kind === 'content' && opened && (
        <EditContentModal key={opened.id} document={opened} onClose={closeModal} />
      )}
    </div>
  );
}
