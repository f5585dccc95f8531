import { useState, type FormEvent } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { FormField, Input } from '../../../components/ui/form-field.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { formatDate } from '../../../lib/format.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { useDocumentVersions } from '../api/document-versions.ts';
import { useRenewDocument } from '../api/renew-document.ts';
import { EarlierVersions } from './earlier-versions.tsx';

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
