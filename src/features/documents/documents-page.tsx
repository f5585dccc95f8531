import { Upload } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { paths } from '../../config/paths.ts';
import type { DocumentRecord } from '../../lib/documents.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useDocumentAccess } from '../../lib/document-categories.ts';
import { useSession } from '../../lib/session.tsx';
import {
  useDocumentSearch,
  type DocumentQuery,
  type SearchedDocument,
  type SortColumn,
} from './api/search-documents.ts';
import { useDocument } from './api/fetch-document.ts';
import { BulkActionsBar } from './components/bulk-actions-bar.tsx';
import { DocumentFilters } from './components/document-filters.tsx';
import { DocumentPreviewModal } from './components/document-preview-modal.tsx';
import { DocumentsEmpty } from './components/documents-empty.tsx';
import { DocumentsLoadError } from './components/documents-load-error.tsx';
import { DocumentsPager } from './components/documents-pager.tsx';
import { DocumentsTable } from './components/documents-table.tsx';
import { EditContentModal } from './components/edit-content-modal.tsx';
import { EditPropertiesModal } from './components/edit-properties-modal.tsx';
import { NewVersionDialog } from './components/new-version-dialog.tsx';
import { OrganizationRequired } from './components/organization-required.tsx';
import { RenewDialog } from './components/renew-dialog.tsx';
import { UploadedNotice } from './components/uploaded-notice.tsx';
import type { DocumentAction } from './components/row-actions.tsx';
import { useConfirmedDelete } from './hooks/use-delete-document.ts';
import { useDocumentQuery } from './hooks/use-document-query.ts';
import { useDownloadDocument } from './hooks/use-download-document.ts';
import { uploadedDocumentsOf } from './utils/uploaded-documents.ts';

type OpenModal =
  | {
      kind: 'view' | 'share' | 'properties' | 'content' | 'renew' | 'new-version';
      document: DocumentRecord;
    }
  | { kind: 'email'; documents: DocumentRecord[]; selection: boolean }
  | null;

/**
 * The e-mail dialog for some documents, given by the page that puts this feature together with
 * the e-mail feature (app/routes/documents-page.tsx); without it the page offers no Email.
 */
export type EmailDialog = (
  documents: DocumentRecord[],
  handlers: { onClose: () => void; onSent: () => void },
) => ReactNode;

export interface DocumentsPageProps {
  emailDialog?: EmailDialog;
}

/** Newest, largest and best-matching first; names, categories and dates from the start. */
const naturallyDescending = (column: SortColumn) =>
  column === 'relevance' || column === 'upload_date' || column === 'size';

/** The order the server applies when the address names none. */
function effectiveSort(query: DocumentQuery): { column: SortColumn; descending: boolean } {
  const column = query.sort ?? (/\w/.test(query.search) ? 'relevance' : 'upload_date');
  return { column, descending: query.descending ?? naturallyDescending(column) };
}

/** /documents: search, filter and manage the organisation's documents (spec §2). */
export function DocumentsPage({ emailDialog }: DocumentsPageProps) {
  const { organization, profileLoading } = useSession();
  if (profileLoading) return <Spinner />;
  if (!organization) return <OrganizationRequired title="Documents" />;
  return <OrganizationDocuments emailDialog={emailDialog} />;
}

/**
 * `?document={id}` (the links of reminder e-mails, the calendar feed and the dashboard's renewal
 * rows) opens that document, wherever it is in the list; the parameter is then dropped so that
 * Back and reload do not open it again.
 */
function useLinkedDocument(open: (document: DocumentRecord) => void) {
  const [params, setParams] = useSearchParams();
  const documentId = params.get('document');
  const linked = useDocument(documentId);
  const settled = documentId !== null && !linked.isPending;
  const found = linked.data ?? null;
  useEffect(() => {
    if (!settled) return;
    // Deleted, or not this organisation's: the list is shown as it is.
    if (found) open(found);
    setParams(
      (now) => {
        const next = new URLSearchParams(now);
        next.delete('document');
        return next;
      },
      { replace: true },
    );
  }, [settled, found, open, setParams]);
}

/**
 * The documents an upload just added (the upload page's navigation state), and forgetting them:
 * the marks go, the address stays.
 */
function useUploadedDocuments() {
  const location = useLocation();
  const navigate = useNavigate();
  const documents = useMemo(() => uploadedDocumentsOf(location.state), [location.state]);
  const ids = useMemo(() => new Set(documents.map((document) => document.id)), [documents]);
  const dismiss = useCallback(
    () =>
      navigate({ search: location.search, hash: location.hash }, { replace: true, state: null }),
    [navigate, location.search, location.hash],
  );
  return { documents, ids, dismiss };
}

function OrganizationDocuments({ emailDialog }: DocumentsPageProps) {
  const [query, setQuery] = useDocumentQuery();
  const list = useDocumentSearch(query);
  const [modal, setModal] = useState<OpenModal>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const download = useDownloadDocument();
  const deleteWithConfirmation = useConfirmedDelete();
  const uploaded = useUploadedDocuments();
  const access = useDocumentAccess();
  const rows = useMemo(() => list.data?.rows ?? [], [list.data]);
  const total = list.data?.total ?? 0;
  const sort = effectiveSort(query);

  useLinkedDocument(useCallback((document) => setModal({ kind: 'view', document }), []));

  // A new search, filter, order or page: what was selected is no longer on screen.
  useEffect(() => setSelected(new Set()), [query]);

  const onAction = useCallback(
    (action: DocumentAction, document: SearchedDocument) => {
      if (action === 'download') void download(document);
      else if (action === 'delete') void deleteWithConfirmation(document);
      else if (action === 'email')
        setModal({ kind: 'email', documents: [document], selection: false });
      else setModal({ kind: action, document });
    },
    [download, deleteWithConfirmation],
  );
  const onSort = useCallback(
    (column: SortColumn) =>
      setQuery(
        column === sort.column
          ? { sort: column, descending: !sort.descending }
          : { sort: column, descending: null },
      ),
    [setQuery, sort.column, sort.descending],
  );
  const onSelect = useCallback((document: SearchedDocument, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(document.id);
      else next.delete(document.id);
      return next;
    });
  }, []);
  const onSelectAll = useCallback(
    (on: boolean) => setSelected(on ? new Set(rows.map((row) => row.id)) : new Set()),
    [rows],
  );
  const closeModal = useCallback(() => setModal(null), []);
  const filtering =
    query.search.trim() !== '' ||
    query.category !== null ||
    query.tag !== null ||
    query.expiry !== null ||
    query.uploader !== null;
  // The open document as the page holds it now (after a save, the saved row).
  const shown = modal && modal.kind !== 'email' ? modal.document : null;
  const opened = shown && (rows.find((row) => row.id === shown.id) ?? shown);

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-gray-900">Documents</h1>
          <p className="text-sm text-gray-600">
            Search, preview and manage your organization’s documents.
          </p>
        </div>
        {access.mayUpload && (
          <ButtonLink to={paths.upload} icon={Upload}>
            Upload Documents
          </ButtonLink>
        )}
      </div>

      {uploaded.documents.length > 0 && (
        <UploadedNotice documents={uploaded.documents} onDismiss={uploaded.dismiss} />
      )}

      <DocumentFilters query={query} onChange={setQuery} />

      {list.isPending && <Spinner label="Loading documents..." />}
      {list.isError && !list.data && (
        <DocumentsLoadError
          message={errorMessage(list.error)}
          onRetry={() => void list.refetch()}
        />
      )}
      {list.data && (
        <>
          {list.isError && (
            <DocumentsLoadError
              message={errorMessage(list.error)}
              onRetry={() => void list.refetch()}
            />
          )}
          <DocumentsPager
            page={query.page}
            total={total}
            capped={list.data?.totalCapped ?? false}
            rowsOnPage={rows.length}
            onPage={(page) => setQuery({ page })}
          />
          {selected.size > 0 && (
            <BulkActionsBar
              documents={rows.filter((row) => selected.has(row.id))}
              onDone={() => setSelected(new Set())}
              onEmail={
                emailDialog && !access.readOnly
                  ? (documents) =>
                      setModal({ kind: 'email', documents: [...documents], selection: true })
                  : undefined
              }
              readOnly={access.readOnly}
            />
          )}
          {/* The search the rows are for: lets a test or a measurement see when they caught up. */}
          <div data-applied-search={list.isPlaceholderData ? undefined : query.search}>
            {rows.length > 0 ? (
              <DocumentsTable
                documents={rows}
                onAction={onAction}
                sort={sort}
                onSort={onSort}
                selected={selected}
                onSelect={onSelect}
                onSelectAll={onSelectAll}
                canEmail={emailDialog !== undefined && !access.readOnly}
                canShare={!access.readOnly}
                uploaded={uploaded.ids}
                mayEdit={access.mayEdit}
                isRestricted={access.isRestricted}
              />
            ) : (
              <DocumentsEmpty filtered={filtering} mayUpload={access.mayUpload} />
            )}
          </div>
        </>
      )}

      {(modal?.kind === 'view' || modal?.kind === 'share') && opened && (
        <DocumentPreviewModal
          key={opened.id}
          document={opened}
          initialTab={modal.kind === 'share' ? 'share' : 'preview'}
          onClose={closeModal}
        />
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
      {modal?.kind === 'new-version' && opened && (
        <NewVersionDialog key={opened.id} document={opened} onClose={closeModal} />
      )}
      {modal?.kind === 'email' &&
        emailDialog?.(modal.documents, {
          onClose: closeModal,
          // E-mailed from the bulk bar: the selection is done with, as after any bulk action.
          onSent: () => {
            if (modal.selection) setSelected(new Set());
            closeModal();
          },
        })}
    </div>
  );
}
