import { Upload } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Spinner } from '../../components/spinner.tsx';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../lib/session.tsx';
import type { DocumentRecord } from '../../lib/documents.ts';
import { useDocumentList } from './api/list-documents.ts';
import { DocumentFilters } from './components/document-filters.tsx';
import { DocumentPreviewModal } from './components/document-preview-modal.tsx';
import { DocumentsEmpty } from './components/documents-empty.tsx';
import { DocumentsLoadError } from './components/documents-load-error.tsx';
import { BY_EXPIRY, DocumentsTable } from './components/documents-table.tsx';
import { EditContentModal } from './components/edit-content-modal.tsx';
import { EditPropertiesModal } from './components/edit-properties-modal.tsx';
import { OrganizationRequired } from './components/organization-required.tsx';
import { RenewDialog } from './components/renew-dialog.tsx';
import type { DocumentAction } from './components/row-actions.tsx';
import { useConfirmedDelete } from './hooks/use-delete-document.ts';
import {
  ALL_CATEGORIES,
  isExpiryFilter,
  useDocumentFilter,
  type ExpiryFilter,
} from './hooks/use-document-filter.ts';
import { useDownloadDocument } from './hooks/use-download-document.ts';

type OpenModal = {
  kind: 'view' | 'properties' | 'content' | 'renew';
  document: DocumentRecord;
} | null;

/** /documents: search, filter and manage the organisation's documents (spec §2). */
export function DocumentsPage() {
  const { organization, profileLoading } = useSession();
  if (profileLoading) return <Spinner />;
  if (!organization) return <OrganizationRequired title="Documents" />;
  return <OrganizationDocuments />;
}

/**
 * What the address asks for (links from the dashboard and from reminder e-mails):
 * `?expiry=overdue|soon` filters by expiry state, `?sort=expiry` orders by expiry date, and
 * `?document={id}` opens that document.
 */
function useListAddress() {
  const [params, setParams] = useSearchParams();
  const expiryParam = params.get('expiry');
  const expiry: ExpiryFilter = isExpiryFilter(expiryParam) ? expiryParam : '';
  const setExpiry = useCallback(
    (value: ExpiryFilter) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set('expiry', value);
          else next.delete('expiry');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const clearDocument = useCallback(
    () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('document');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return {
    expiry,
    setExpiry,
    byExpiry: params.get('sort') === 'expiry' || expiry !== '',
    documentId: params.get('document'),
    clearDocument,
  };
}

function OrganizationDocuments() {
  const list = useDocumentList();
  const address = useListAddress();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState(ALL_CATEGORIES);
  const { filtered, appliedSearch, appliedCategory } = useDocumentFilter(
    list.rows,
    search,
    category,
    address.expiry,
  );
  const [modal, setModal] = useState<OpenModal>(null);
  const { documentId, clearDocument } = address;
  // A link to one document opens it once the list holds it.
  useEffect(() => {
    if (!documentId) return;
    const linked = list.rows.find((row) => row.id === documentId);
    if (linked) {
      setModal({ kind: 'view', document: linked });
      clearDocument();
    }
  }, [documentId, list.rows, clearDocument]);
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
  const filtering =
    appliedSearch.trim() !== '' || appliedCategory !== ALL_CATEGORIES || address.expiry !== '';
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
        expiry={address.expiry}
        onSearchChange={setSearch}
        onCategoryChange={setCategory}
        onExpiryChange={address.setExpiry}
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
              <DocumentsTable
                // A new order asked for by the address starts the table afresh.
                key={address.byExpiry ? 'by-expiry' : 'newest'}
                documents={filtered}
                onAction={onAction}
                initialSort={address.byExpiry ? BY_EXPIRY : null}
              />
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
      {modal?.kind === 'renew' && opened && (
        <RenewDialog key={opened.id} document={opened} onClose={closeModal} />
      )}
      {modal?.kind === 'content' && opened && (
        <EditContentModal key={opened.id} document={opened} onClose={closeModal} />
      )}
    </div>
  );
}
