import { Download, History } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { formatDate, formatDateTime, formatFileSize } from '../../../lib/format.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { useDocumentVersions, type DocumentVersion } from '../api/document-versions.ts';
import { useRenewDocument } from '../api/renew-document.ts';
import { useDownloadDocument } from '../hooks/use-download-document.ts';

/** Asked before the page is left with a replacement chosen but not saved. */
export const UNSAVED_RENEWAL_QUESTION =
  'You have started renewing this document without saving it. Leave without saving?';

/** The current expiry date a year on: what most certificates and policies get. */
function aYearLater(date: string | null): string {
  if (!date) return '';
  const next = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next.toISOString().slice(0, 10);
}

/**
 * Renew (issue 14): the replacement file and the new expiry date in one step. The current file
 * stays as an earlier version, listed below with its dates, who uploaded it and its size, and
 * downloadable. Renewing also clears the "renewal in progress" marker.
 */
export function RenewDialog({
  document,
  onClose,
}: {
  document: DocumentRecord;
  onClose: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [expiryDate, setExpiryDate] = useState(() => aYearLater(document.expiry_date));
  const [problem, setProblem] = useState<string | null>(null);
  const renew = useRenewDocument();
  const versions = useDocumentVersions(document.id);
  useLeaveGuard(file !== null && !renew.isSuccess, UNSAVED_RENEWAL_QUESTION);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setProblem('Choose the new file.');
      return;
    }
    if (!expiryDate) {
      setProblem('Enter the new expiry date.');
      return;
    }
    setProblem(null);
    renew.mutate({ document, file, expiryDate }, { onSuccess: onClose });
  }

  return (
    <Modal
      title={
        <>
          Renew
          <span className="mt-0.5 block text-sm font-normal break-all text-gray-500">
            {document.name}
          </span>
        </>
      }
      onClose={onClose}
      size="lg"
      dismissible={!renew.isPending}
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-gray-600">
          {document.expiry_date
            ? `The current file expires on ${formatDate(document.expiry_date)}. `
            : ''}
          It will be kept as an earlier version of this document.
        </p>
        <FormField label="New file" required>
          {(props) => (
            <Input
              {...props}
              type="file"
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              disabled={renew.isPending}
            />
          )}
        </FormField>
        <FormField label="New expiry date" required>
          {(props) => (
            <Input
              {...props}
              type="date"
              value={expiryDate}
              min="1900-01-01"
              max="9999-12-31"
              onChange={(event) => setExpiryDate(event.target.value)}
              disabled={renew.isPending}
            />
          )}
        </FormField>
        <FormError>
          {problem ?? (renew.isError ? `Renewal failed: ${errorMessage(renew.error)}` : null)}
        </FormError>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={renew.isPending}>
            Cancel
          </Button>
          <Button type="submit" busy={renew.isPending} busyLabel="Renewing...">
            Renew
          </Button>
        </div>
      </form>

      <EarlierVersions
        versions={versions.data ?? []}
        loading={versions.isPending}
        error={versions.isError ? errorMessage(versions.error) : null}
      />
    </Modal>
  );
}

function EarlierVersions({
  versions,
  loading,
  error,
}: {
  versions: DocumentVersion[];
  loading: boolean;
  error: string | null;
}) {
  const download = useDownloadDocument();
  return (
    <section aria-label="Earlier versions" className="mt-6 border-t border-gray-100 pt-4">
      <h3 className="flex items-center gap-2 text-sm font-medium text-gray-700">
        <History className="h-4 w-4" aria-hidden="true" /> Earlier versions
      </h3>
      {loading && <p className="mt-2 text-sm text-gray-500">Loading...</p>}
      {error && <FormError>{`Failed to load the earlier versions: ${error}`}</FormError>}
      {!loading && !error && versions.length === 0 && (
        <p className="mt-2 text-sm text-gray-500">
          None yet: renewing keeps the current file here.
        </p>
      )}
      {versions.length > 0 && (
        <ul className="mt-2 divide-y divide-gray-100 rounded-md border border-gray-200">
          {versions.map((version) => (
            <li key={version.id} className="flex items-center gap-3 px-3 py-2 text-sm">
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium text-gray-900">
                  Version {version.version_number}: {version.name}
                </span>
                <span className="block text-xs text-gray-500">
                  Uploaded {formatDate(version.uploaded_at)}
                  {version.uploader
                    ? ` by ${version.uploader.full_name ?? version.uploader.email}`
                    : ''}
                  {' · '}
                  {version.expiry_date ? `expired ${formatDate(version.expiry_date)} · ` : ''}
                  replaced {formatDateTime(version.replaced_at)} · {formatFileSize(version.size)}
                </span>
              </span>
              <Button
                variant="ghost"
                size="icon"
                title="Download"
                aria-label={`Download version ${version.version_number} of ${version.name}`}
                onClick={() => void download({ name: version.name, file_path: version.file_path })}
              >
                <Download className="h-4 w-4" aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
