import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions } from '../../../components/ui/dialog-actions.tsx';
import { FileDrop } from '../../../components/ui/file-drop.tsx';
import { FormField, useFormProblems } from '../../../components/ui/form-field.tsx';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { useUploadNewVersion } from '../api/upload-new-version.ts';
import { newVersionProblem } from '../utils/same-kind.ts';

/** Asked before the page is left with a new version chosen but not uploaded. */
export const UNSAVED_VERSION_QUESTION =
  'You have chosen a new version of this document without uploading it. Leave without uploading?';

export interface NewVersionFormProps {
  document: Pick<DocumentRecord, 'id' | 'organization_id' | 'name'>;
  /** A file already chosen (dropped onto the preview). */
  initialFile?: File | null;
  onCancel: () => void;
  onDone: (saved: DocumentRecord) => void;
}

/**
 * A new version of any document (issue 25): its new file, of the same type, replaces the
 * current one, which stays as an earlier version (Versions tab) with the date and who uploaded
 * it. The expiry date stays: Renew is the way that also moves it. Used in its own dialog (a
 * row's "Upload new version") and inside the preview, where a file can be dropped.
 */
export function NewVersionForm({
  document,
  initialFile = null,
  onCancel,
  onDone,
}: NewVersionFormProps) {
  const [file, setFile] = useState<File | null>(initialFile);
  const { formRef, problems, report, clear } = useFormProblems<'file'>();
  const upload = useUploadNewVersion();
  useLeaveGuard(file !== null && !upload.isSuccess, UNSAVED_VERSION_QUESTION);
  const [sent, setSent] = useState(0);
  // A dropped file of another type is said at once, not only when sent.
  const shownProblem =
    problems?.file ?? (file ? newVersionProblem(document.name, file.name) : null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = report({
      file: file
        ? (newVersionProblem(document.name, file.name) ?? undefined)
        : 'Choose the new file.',
    });
    if (invalid || !file) return;
    upload.mutate({ document, file, onProgress: (bytes) => setSent(bytes) }, { onSuccess: onDone });
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-gray-600">
        The current file will be kept as an earlier version of this document. The expiry date stays
        as it is: to change it too, use Renew.
      </p>
      <FormField label="New file" required error={shownProblem ?? undefined}>
        {(props) => (
          <FileDrop
            {...props}
            chosen={file}
            onFiles={([chosen]) => {
              if (!chosen) return;
              setFile(chosen);
              clear('file');
            }}
            disabled={upload.isPending}
          />
        )}
      </FormField>
      {upload.isPending && file && file.size > 0 && (
        <progress
          className="h-1.5 w-full"
          max={file.size}
          value={sent}
          aria-label={`Upload of ${file.name}`}
        />
      )}
      <DialogActions className="">
        <Button variant="secondary" onClick={onCancel} disabled={upload.isPending}>
          Cancel
        </Button>
        <Button type="submit" busy={upload.isPending} busyLabel="Uploading...">
          Upload new version
        </Button>
      </DialogActions>
    </form>
  );
}
