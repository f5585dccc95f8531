import { Mail, Search, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { paths } from '../../../config/paths.ts';
import { RestrictedLock } from '../../../components/restricted-lock.tsx';
import { useDocumentAccess } from '../../../lib/document-categories.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { CATEGORY_PAGE_SIZE } from '../api/list-category-documents.ts';
import { useCategoryDocuments } from '../hooks/use-category-documents.ts';
import type { DocumentMatch } from '../lib/document-match.ts';
import { CategoryDocumentRow } from './category-document-row.tsx';
import { sentNotice, type SentStatus } from '../api/send-documents-email.ts';
import { EmailDocumentsDialog } from './email-documents-dialog.tsx';

export interface CategoryDocumentListProps {
  /** Heading of the list, e.g. `HR Documents`. */
  title: string;
  /** Which documents belong here. */
  match: DocumentMatch;
  /** A row's View: the page shows the document (the documents feature's preview). */
  onView: (document: DocumentRecord) => void;
  /** A row's Download. */
  onDownload: (document: DocumentRecord) => void;
  /** Where the empty state's Upload leads: /upload, or the form filled in for this page. */
  uploadTo?: string;
}

/**
 * The documents of a category or department page (product-spec §2): search by name,
 * description or tag (and the text inside files, on the server), select one or all, Email
 * Selected, and per row View, Download and Email; one page of 50 at a time.
 */
export function CategoryDocumentList({
  title,
  match,
  onView,
  onDownload,
  uploadTo,
}: CategoryDocumentListProps) {
  const list = useCategoryDocuments(match);
  const access = useDocumentAccess();
  const toast = useToast();
  // The documents being e-mailed, and whether they are the selection (cleared once sent).
  const [emailing, setEmailing] = useState<{
    documents: readonly DocumentRecord[];
    selection: boolean;
  } | null>(null);
  const headingId = useId();

  const onSent = (status: SentStatus) => {
    if (emailing?.selection) list.clearSelection();
    setEmailing(null);
    // Kept in the Outbox is worth knowing, not a success.
    toast(sentNotice(status), status === 'outbox' ? 'info' : 'success');
  };

  return (
    <Card as="section" padding="none" aria-labelledby={headingId}>
      <div className="flex flex-col gap-3 border-b border-gray-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-gray-900">
          {title}
          {match.documentCategory && access.isRestricted(match.documentCategory) && (
            <RestrictedLock className="h-4 w-4" />
          )}
        </h2>
        {/* Sending e-mail is a change a Viewer may not make (send_documents_email). */}
        {!access.readOnly && (
          <Button
            icon={Mail}
            onClick={() => setEmailing({ documents: list.selected, selection: true })}
            disabled={list.selected.length === 0}
          >
            Email Selected{list.selected.length > 0 ? ` (${list.selected.length})` : ''}
          </Button>
        )}
      </div>

      {list.loading && !list.error ? (
        <Spinner label="Loading documents..." />
      ) : list.error ? (
        <div className="m-4">
          <ErrorPanel title={`Error loading documents: ${list.error}`} />
        </div>
      ) : list.empty ? (
        <div className="px-4 py-10 text-center">
          <p className="text-sm text-gray-600">No documents found for this page yet.</p>
          {access.mayUpload && (
            <ButtonLink to={uploadTo ?? paths.upload} icon={Upload} className="mt-4">
              Upload Documents
            </ButtonLink>
          )}
        </div>
      ) : (
        <>
          <div className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center">
            <FormField label="Search documents" hideLabel className="relative flex-1">
              {(props) => (
                <>
                  <Search
                    className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-gray-400"
                    aria-hidden="true"
                  />
                  <Input
                    {...props}
                    type="search"
                    value={list.query}
                    onChange={(event) => list.setQuery(event.target.value)}
                    placeholder="Search by name, description or tag"
                    className="pl-9"
                  />
                </>
              )}
            </FormField>
            <Checkbox
              checked={list.allVisibleSelected}
              onChange={list.toggleAll}
              disabled={list.visible.length === 0}
              label="Select all"
            />
          </div>
          {list.visible.length === 0 ? (
            <p className="px-4 pb-6 text-sm text-gray-600">No documents match your search.</p>
          ) : (
            <>
              <ul className="divide-y divide-gray-100 border-t border-gray-100" aria-label={title}>
                {list.visible.map((document) => (
                  <CategoryDocumentRow
                    key={document.id}
                    document={document}
                    selected={list.selectedIds.has(document.id)}
                    onToggle={list.toggle}
                    onView={onView}
                    onDownload={onDownload}
                    onEmail={
                      access.readOnly
                        ? undefined
                        : (item) => setEmailing({ documents: [item], selection: false })
                    }
                    restricted={access.isRestricted(document.category)}
                  />
                ))}
              </ul>
              {list.total > CATEGORY_PAGE_SIZE && (
                <div className="flex items-center justify-between gap-3 border-t border-gray-100 px-4 py-3 text-sm text-gray-600">
                  <p>
                    Showing {list.page * CATEGORY_PAGE_SIZE + 1}–
                    {Math.min(list.total, (list.page + 1) * CATEGORY_PAGE_SIZE)} of{' '}
                    {list.totalCapped
                      ? `more than ${list.total.toLocaleString()}`
                      : list.total.toLocaleString()}
                  </p>
                  <div className="flex gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={list.page === 0}
                      onClick={() => list.setPage(list.page - 1)}
                    >
                      Previous
                    </Button>
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={
                        list.totalCapped
                          ? list.visible.length < CATEGORY_PAGE_SIZE
                          : (list.page + 1) * CATEGORY_PAGE_SIZE >= list.total
                      }
                      onClick={() => list.setPage(list.page + 1)}
                    >
                      Next
                    </Button>
                  </div>
                </div>
              )}
            </>
          )}
        </>
      )}

      {emailing && (
        <EmailDocumentsDialog
          documents={emailing.documents}
          onClose={() => setEmailing(null)}
          onSent={onSent}
        />
      )}
    </Card>
  );
}
