import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useFeedback } from '../../components/feedback.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../lib/session.tsx';
import { DocumentPropertyFields } from './components/document-property-fields.tsx';
import { FileDropZone } from './components/file-drop-zone.tsx';
import { SelectedFilesList } from './components/selected-files-list.tsx';
import { useUploadQueue } from './hooks/use-upload-queue.ts';
import {
  EMPTY_PROPERTY_INPUT,
  hasCategory,
  toDocumentProperties,
} from './utils/property-values.ts';
import { uploadFailureMessage } from './utils/upload-summary.ts';

/** /upload: several files at once, with category, expiry date, tags and description (spec §2). */
export function UploadPage() {
  const { organization, profileLoading } = useSession();
  const navigate = useNavigate();
  const { alert } = useFeedback();
  const queue = useUploadQueue();
  const [values, setValues] = useState(EMPTY_PROPERTY_INPUT);
  const [started, setStarted] = useState(false);

  if (profileLoading) return <Spinner />;
  if (!organization) {
    return (
      <div className="mx-auto max-w-xl rounded-lg border border-gray-200 bg-white p-6 text-center shadow-sm">
        <h1 className="text-xl font-semibold text-gray-900">Upload Documents</h1>
        <p className="mt-2 text-sm text-gray-600">
          Documents belong to an organization. Set up your organization first, then come back to
          upload.
        </p>
        <Link
          to={paths.users}
          className="mt-4 inline-block rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700"
        >
          Set Up Organization
        </Link>
      </div>
    );
  }
  const organizationId = organization.id;
  const pending = queue.files.filter((item) => item.state !== 'done');
  const uploadedCount = queue.files.length - pending.length;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (queue.running) return;
    if (pending.length === 0) {
      await alert('Please select at least one file to upload.');
      return;
    }
    if (!hasCategory(values)) {
      await alert('Please select a category.');
      return;
    }
    setStarted(true);
    const outcome = await queue.upload(toDocumentProperties(values), organizationId);
    if (outcome.failed.length === 0) {
      navigate(paths.documents);
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
        />
        {started && !queue.running && uploadedCount > 0 && pending.length > 0 && (
          <p role="status" className="rounded-md bg-yellow-50 px-4 py-3 text-sm text-yellow-800">
            {uploadedCount} {uploadedCount === 1 ? 'file was' : 'files were'} uploaded. The files
            marked Failed were not: fix the problem, then press Upload Documents to try them again.
          </p>
        )}
        <div className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
          <DocumentPropertyFields values={values} onChange={setValues} disabled={queue.running} />
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={() => navigate(paths.documents)}
            disabled={queue.running}
            className="rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50 disabled:opacity-50"
          >
            Cancel
          </button>
          <button
            type="submit"
            disabled={queue.running}
            className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 disabled:opacity-60"
          >
            {queue.running ? 'Uploading...' : 'Upload Documents'}
          </button>
        </div>
      </form>
    </div>
  );
}
