import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DialogActions } from '../../components/ui/dialog-actions.tsx';
import { useFormProblems, type FieldProblems } from '../../components/ui/form-field.tsx';
import { useLeaveGuard } from '../../components/ui/use-leave-guard.ts';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../lib/session.tsx';
import type { MatchingDocument } from './api/find-duplicates.ts';
import { pickerCategories, useDocumentCategories } from '../../lib/document-categories.ts';
import { errorMessage } from '../../lib/errors.ts';
import { isViewerRole } from '../../lib/roles.ts';
import { ErrorPanel } from '../../components/ui/form-error.tsx';
import { DocumentPropertyFields } from './components/document-property-fields.tsx';
import { DuplicateQuestion, type DuplicateChoice } from './components/duplicate-question.tsx';
import { FileDropZone } from './components/file-drop-zone.tsx';
import { OrganizationRequired } from './components/organization-required.tsx';
import { SelectedFilesList } from './components/selected-files-list.tsx';
import { useUploadQueue, type QueuedFile, type UploadOptions } from './hooks/use-upload-queue.ts';
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

/** A file the organisation already has, and the answer the upload waits for. */
interface PendingDuplicate {
  file: File;
  existing: MatchingDocument[];
  resolve: (choice: DuplicateChoice) => void;
}

/** The fields of the form: the files, the batch's category, and a file's own category. */
type UploadField = 'files' | 'category' | `category-of-${string}`;

/** What the form finds missing when it is sent, in the specification's words (§5). */
function uploadProblems(
  pending: readonly QueuedFile[],
  batch: PropertyInput,
): FieldProblems<UploadField> {
  if (pending.length === 0) return { files: 'Please select at least one file to upload.' };
  const problems: FieldProblems<UploadField> = {};
  if (pending.some((item) => !item.details) && !hasCategory(batch)) {
    problems.category = 'Please select a category.';
  }
  for (const item of pending) {
    if (item.details && !hasCategory(item.details)) {
      problems[`category-of-${item.key}`] = `Please select a category for ${item.file.name}.`;
    }
  }
  return problems;
}

/**
 * Sending the queue as one write: when a file fails, the write fails, and the one handler of
 * failed writes says which files and why (spec §8 `Upload failed: {message}`); the files
 * that went in stay, marked Uploaded.
 */
function useSendQueue(queue: ReturnType<typeof useUploadQueue>) {
  return useMutation({
    mutationFn: async (options: UploadOptions) => {
      const outcome = await queue.upload(options);
      if (outcome.failed.length > 0) throw new Error(uploadFailureMessage(outcome));
      return outcome;
    },
  });
}

/** A Viewer reads and downloads; the page says so instead of offering a form that would fail. */
function ViewerCannotUpload() {
  return (
    <div className="space-y-2">
      <h1 className="text-2xl font-semibold text-gray-900">Upload Documents</h1>
      <p role="status" className="text-sm text-gray-700">
        Viewers can see and download documents but cannot upload them. Ask an administrator if you
        need to add documents.
      </p>
    </div>
  );
}

/**
 * /upload: several files at once, with category, expiry date, tags and description (spec §2),
 * for the whole batch or per file; each file's progress; for a file the organisation already
 * has (its bytes or its name), the choice to upload it as a new version, keep both or skip it. Once every file is in, the documents
 * list opens with the new documents marked.
 */
export function UploadPage() {
  const { organization, profile, profileLoading } = useSession();
  const navigate = useNavigate();
  const queue = useUploadQueue();
  const send = useSendQueue(queue);
  const { formRef, problems, report, clear } = useFormProblems<UploadField>();
  // A department page's Upload fills in its category and tags (`?category=…&tags=…`).
  const [searchParams] = useSearchParams();
  const [values, setValues] = useState<PropertyInput>(() => ({
    ...EMPTY_PROPERTY_INPUT,
    category: searchParams.get('category') ?? '',
    tags: searchParams.get('tags') ?? '',
  }));
  const [started, setStarted] = useState(false);
  // Every file is in: these are the documents made, for the list to mark.
  const [finished, setFinished] = useState<UploadedDocument[] | null>(null);
  // The question about a file the organisation already has, while it is asked.
  const [duplicate, setDuplicate] = useState<PendingDuplicate | null>(null);
  useLeaveGuard(queue.running, UPLOADING_QUESTION);
  // The form offers the organisation's categories: it waits for them.
  const categories = useDocumentCategories();

  // A category filled in from the address that this member may not upload into is dropped, so
  // that the form asks for one.
  const offered = categories.data ? pickerCategories(categories.data) : null;
  useEffect(() => {
    if (offered && values.category && !offered.some((c) => c.name === values.category)) {
      setValues((current) => ({ ...current, category: '' }));
    }
  }, [offered, values.category]);

  // Off to the list once every file is in, after the guard above has let go of the page.
  useEffect(() => {
    if (finished) navigate(paths.documents, { state: uploadedState(finished) });
  }, [finished, navigate]);

  if (profileLoading) return <Spinner />;
  if (!organization) return <OrganizationRequired title="Upload Documents" />;
  if (isViewerRole(profile?.role)) return <ViewerCannotUpload />;
  if (categories.isPending) return <Spinner />;
  if (categories.isError) {
    return (
      <ErrorPanel
        title={`The categories could not be loaded: ${errorMessage(categories.error)}`}
        actions={
          <Button variant="destructive-outline" size="sm" onClick={() => void categories.refetch()}>
            Try again
          </Button>
        }
      />
    );
  }
  const organizationId = organization.id;
  const pending = queue.files.filter((item) => item.state !== 'done');
  const uploaded = uploadedDocuments(queue.files);
  const uploadedCount = uploaded.length;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (queue.running) return;
    if (report(uploadProblems(pending, values))) return;
    setStarted(true);
    const uploadedBefore = uploadedDocuments(queue.files);
    send.mutate(
      {
        organizationId,
        // Every file about to be uploaded has a category: checked above.
        propertiesOf: (item) =>
          toDocumentProperties(
            (item.details ?? values) as PropertyInput & { category: DocumentCategory },
          ),
        onDuplicate: (file, existing) =>
          new Promise((resolve) => setDuplicate({ file, existing, resolve })),
      },
      {
        onSuccess: (outcome) => {
          const made = [...uploadedBefore, ...uploadedDocuments(outcome.succeeded)];
          if (made.length > 0) setFinished(made);
        },
      },
    );
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-gray-900">Upload Documents</h1>
        <p className="text-sm text-gray-600">Add files to your organization’s document library.</p>
      </div>
      <form
        ref={formRef}
        onSubmit={submit}
        noValidate
        className="space-y-6"
        aria-busy={queue.running}
      >
        <FileDropZone
          onFiles={(files) => {
            queue.add(files);
            clear('files');
          }}
          disabled={queue.running}
          error={problems?.files}
        />
        <SelectedFilesList
          files={queue.files}
          running={queue.running}
          started={started}
          onRemove={queue.remove}
          batch={values}
          onDetails={(key, details) => {
            queue.setDetails(key, details);
            clear(`category-of-${key}`);
          }}
          categoryErrorOf={(key) => problems?.[`category-of-${key}`]}
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
        <Card>
          <DocumentPropertyFields
            values={values}
            onChange={(next) => {
              setValues(next);
              clear('category');
            }}
            disabled={queue.running}
            categoryError={problems?.category}
          />
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
        </Card>
        <DialogActions className="">
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
        </DialogActions>
      </form>
      {duplicate && (
        <DuplicateQuestion
          key={duplicate.file.name}
          file={duplicate.file}
          existing={duplicate.existing}
          onChoose={(choice) => {
            setDuplicate(null);
            duplicate.resolve(choice);
          }}
        />
      )}
    </div>
  );
}
