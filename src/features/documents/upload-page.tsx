import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useFeedback } from '../../components/feedback.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useLeaveGuard } from '../../components/ui/use-leave-guard.ts';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../lib/session.tsx';
import { DocumentPropertyFields } from './components/document-property-fields.tsx';
import { FileDropZone } from './components/file-drop-zone.tsx';
import { OrganizationRequired } from './components/organization-required.tsx';
import { SelectedFilesList } from './components/selected-files-list.tsx';
import { useUploadQueue, type QueuedFile } from './hooks/use-upload-queue.ts';
import type { DocumentCategory } from '../../config/document-categories.ts';
import {
  EMPTY_PROPERTY_INPUT,
  hasCategory,
  toDocumentProperties,
  type PropertyInput,
} from './utils/property-values.ts';
import { uploadFailureMessage } from './utils/upload-summary.ts';
import { uploadedState, type UploadedDocument } from './utils/uploaded-documents.ts';

/** Asked before leaving the page while files are still being uploaded. */
export const UPLOADING_QUESTION =
  'Files are still being uploaded. If you leave now, the files not yet uploaded will not be saved.';

/** The documents made by the files of the queue that are done. */
function uploadedDocuments(files: readonly QueuedFile[]): UploadedDocument[] {
  return files.flatMap((item) =>
    item.state === 'done' && item.documentId ? [{ id: item.documentId, name: item.file.name }] : [],
  );
}

/**
 * /upload: several files at once, with category, expiry date, tags and description (spec §2),
 * for the whole batch or per file; each file's progress; a warning, with the choice to skip
 * or keep both, for a file the organisation already has. Once every file is in, the documents
 * list opens with the new documents marked.
 */
export function UploadPage() {
  const { organization, profileLoading } = useSession();
  const navigate = useNavigate();
  const { alert, confirm } = useFeedback();
  const queue = useUploadQueue();
  const [values, setValues] = useState(EMPTY_PROPERTY_INPUT);
  const [started, setStarted] = useState(false);
  // Every file is in: these are the documents made, for the list to mark.
  const [finished, setFinished] = useState<UploadedDocument[] | null>(null);
  useLeaveGuard(queue.running, UPLOADING_QUESTION);

  // Off to the list once every file is in, after the guard above has let go of the page.
  useEffect(() => {
    if (finished) navigate(paths.documents, { state: uploadedState(finished) });
  }, [finished, navigate]);

  if (profileLoading) return <Spinner />;
  if (!organization) return <OrganizationRequired title="Upload Documents" />;
  const organizationId = organization.id;
  const pending = queue.files.filter((item) => item.state !== 'done');
  const uploaded = uploadedDocuments(queue.files);
  const uploadedCount = uploaded.length;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (queue.running) return;
    if (pending.length === 0) {
      await alert('Please select at least one file to upload.');
      return;
    }
    const withoutCategory = pending.find((item) => !hasCategory(item.details ?? values));
    if (withoutCategory) {
      await alert(
        withoutCategory.details
          ? `Please select a category for ${withoutCategory.file.name}.`
          : 'Please select a category.',
      );
      return;
    }
    setStarted(true);
    const uploadedBefore = uploadedDocuments(queue.files);
    const outcome = await queue.upload({
      organizationId,
      // Every file about to be uploaded has a category: checked above.
      propertiesOf: (item) =>
        toDocumentProperties(
          (item.details ?? values) as PropertyInput & { category: DocumentCategory },
        ),
      keepDuplicate: (file, existing) =>
        confirm(
          `"${file.name}" is already in your documents as "${existing[0]}". Upload it again?`,
          { confirmLabel: 'Keep both', cancelLabel: 'Skip' },
        ),
    });
    if (outcome.failed.length === 0) {
      const made = [...uploadedBefore, ...uploadedDocuments(outcome.succeeded)];
      if (made.length > 0) setFinished(made);
      return;
    }
    await alert(uploadFailureMessage(outcome));
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-gray-900">Upload Documents</h1>
        <p className="text-sm text-gray-600">Add files to your organization’s document library.</p>
      </div>
      <form onSubmit={submit} noValidate className="space-y-6" aria-busy={queue.running}>
        <FileDropZone onFiles={queue.add} disabled={queue.running} />
        <SelectedFilesList
          files={queue.files}
          running={queue.running}
          started={started}
          onRemove={queue.remove}
          batch={values}
          onDetails={queue.setDetails}
        />
        {started && !queue.running && uploadedCount > 0 && pending.length > 0 && (
          <p
            role="status"
            data-tone="warning"
            className="rounded-md bg-tone-50 px-4 py-3 text-sm text-tone-800"
          >
            {uploadedCount} {uploadedCount === 1 ? 'file was' : 'files were'} uploaded. The files
            marked Failed were not: fix the problem, then press Upload Documents to try them again.{' '}
            <Link
              to={paths.documents}
              state={uploadedState(uploaded)}
              className="font-medium underline"
            >
              See the uploaded {uploadedCount === 1 ? 'file' : 'files'} in Documents
            </Link>
          </p>
        )}
        <div className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
          <DocumentPropertyFields values={values} onChange={setValues} disabled={queue.running} />
          {queue.files.some((item) => item.details !== null) && (
            <div className="mt-4 flex items-center justify-between gap-3 text-sm text-gray-600">
              <p>Some files have their own details; the others get these.</p>
              <Button
                variant="secondary"
                size="sm"
                onClick={queue.applyToAll}
                disabled={queue.running}
              >
                Apply to all files
              </Button>
            </div>
          )}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button
            variant="secondary"
            onClick={() => navigate(paths.documents)}
            disabled={queue.running}
          >
            Cancel
          </Button>
          <Button type="submit" busy={queue.running} busyLabel="Uploading...">
            Upload Documents
          </Button>
        </div>
      </form>
    </div>
  );
}
