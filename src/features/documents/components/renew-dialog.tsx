import { useState, type FormEvent } from 'react';
import { Modal } from '../../../components/ui/modal.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FileDrop } from '../../../components/ui/file-drop.tsx';
import { FormField, Input, useFormProblems } from '../../../components/ui/form-field.tsx';
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
  const { formRef, problems, report, clear } = useFormProblems<'file' | 'expiryDate'>();
  const renew = useRenewDocument();
  const versions = useDocumentVersions(document.id);
  useLeaveGuard(file !== null && !renew.isSuccess, UNSAVED_RENEWAL_QUESTION);

  function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = report({
      file: file ? undefined : 'Choose the new file.',
      expiryDate: expiryDate ? undefined : 'Enter the new expiry date.',
    });
    if (invalid || !file) return;
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
      <form ref={formRef} onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-gray-600">
          {document.expiry_date
            ? `The current file expires on ${formatDate(document.expiry_date)}. `
            : ''}
          It will be kept as an earlier version of this document.
        </p>
        <FormField label="New file" required error={problems?.file}>
          {(props) => (
            <FileDrop
              {...props}
              chosen={file}
              onFiles={([chosen]) => {
                if (!chosen) return;
                setFile(chosen);
                clear('file');
              }}
              disabled={renew.isPending}
            />
          )}
        </FormField>
        <FormField label="New expiry date" required error={problems?.expiryDate}>
          {(props) => (
            <Input
              {...props}
              type="date"
              value={expiryDate}
              min="1900-01-01"
              max="9999-12-31"
              onChange={(event) => {
                setExpiryDate(event.target.value);
                clear('expiryDate');
              }}
              disabled={renew.isPending}
            />
          )}
        </FormField>
        <DialogActions className="">
          <Button variant="secondary" onClick={onClose} disabled={renew.isPending}>
            Cancel
          </Button>
          <Button type="submit" busy={renew.isPending} busyLabel="Renewing...">
            Renew
          </Button>
        </DialogActions>
      </form>

      <EarlierVersions
        versions={versions.data ?? []}
        loading={versions.isPending}
        error={versions.isError ? errorMessage(versions.error) : null}
      />
    </Modal>
  );
}
