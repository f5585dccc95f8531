import { HardDrive } from 'lucide-react';
import { errorMessage } from '../../../lib/errors.ts';
import { formatFileSize } from '../../../lib/format.ts';
import { useStorageUsage, type StorageParts } from '../api/get-storage-usage.ts';

/** From this share of the quota on, the bar turns to the warning colour and says so. */
const NEARLY_FULL = 0.9;

/** What takes the room, in the order shown; parts that hold nothing are left out. */
const PART_LABELS: [keyof StorageParts, string][] = [
  ['documents', 'Documents'],
  ['versions', 'Earlier versions'],
  ['trash', 'Trash'],
  ['imports', 'Imports'],
  ['uploads', 'Uploads in progress'],
  ['other', 'Other files'],
];

/** The parts of the used room, one line each, so admins see where to tidy up. */
function StorageBreakdown({ parts }: { parts: StorageParts }) {
  const shown = PART_LABELS.filter(([key]) => key === 'documents' || parts[key] > 0);
  return (
    <>
      <h3 className="sr-only">What uses the space</h3>
      <dl className="mt-3 grid max-w-2xl gap-x-10 gap-y-1 text-sm sm:grid-cols-2">
        {shown.map(([key, label]) => (
          <div key={key} className="flex justify-between gap-4">
            <dt className="text-gray-600">{label}</dt>
            <dd className="font-medium text-gray-900">{formatFileSize(parts[key])}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/**
 * The organisation's stored files against its storage quota, for admins on the users page, with
 * what uses the space. A full organisation's uploads are refused ("Upload failed: Your
 * organization's storage is full…"), so admins see it coming here, and where to tidy up.
 */
export function StorageUsagePanel({ organizationId }: { organizationId: string }) {
  const { data, error, isError } = useStorageUsage(organizationId);

  let body;
  if (isError) {
    body = (
      <p className="text-sm text-destructive-700">
        Failed to load storage usage: {errorMessage(error)}
      </p>
    );
  } else if (!data) {
    body = <p className="text-sm text-gray-500">Loading storage usage…</p>;
  } else {
    const share = data.quotaBytes > 0 ? Math.min(data.usedBytes / data.quotaBytes, 1) : 1;
    const percent = Math.round(share * 100);
    const full = data.usedBytes >= data.quotaBytes;
    const tone = full ? 'danger' : share >= NEARLY_FULL ? 'warning' : 'info';
    body = (
      <div data-tone={tone}>
        <p className="text-sm text-gray-700">
          {formatFileSize(data.usedBytes)} of {formatFileSize(data.quotaBytes)} used
        </p>
        <div
          role="progressbar"
          aria-label="Storage used"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="mt-2 h-2 w-full overflow-hidden rounded-full bg-gray-100"
        >
          <div className="h-full bg-tone-600" style={{ width: `${percent}%` }} />
        </div>
        {full ? (
          <p className="mt-2 text-sm text-tone-700">
            Your organization&apos;s storage is full: uploads are refused until files are removed.
          </p>
        ) : share >= NEARLY_FULL ? (
          <p className="mt-2 text-sm text-tone-700">
            Your organization&apos;s storage is nearly full.
          </p>
        ) : null}
        <StorageBreakdown parts={data.parts} />
        {data.exportBytes > 0 && (
          <p className="mt-2 text-xs text-gray-500">
            The latest export ({formatFileSize(data.exportBytes)}) is not counted; it is removed
            when it expires or a newer one is ready.
          </p>
        )}
      </div>
    );
  }

  return (
    <section
      aria-labelledby="storage-usage-heading"
      className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
    >
      <h2
        id="storage-usage-heading"
        className="mb-2 flex items-center gap-2 text-lg font-semibold text-gray-900"
      >
        <HardDrive className="h-5 w-5 text-gray-500" aria-hidden="true" />
        Storage
      </h2>
      {body}
    </section>
  );
}
