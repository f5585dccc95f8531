import { Download, History } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { formatDate, formatDateTime, formatFileSize } from '../../../lib/format.ts';
import type { DocumentVersion } from '../api/document-versions.ts';
import { useDownloadDocument } from '../hooks/use-download-document.ts';

/**
 * A document's earlier versions, newest first: each with its dates, who uploaded it and its
 * size, downloadable, and (given `onRestore`) restorable. Shared by Renew and the Versions tab.
 */
export function EarlierVersions({
  versions,
  loading,
  error,
  onRestore,
  restoring,
}: {
  versions: DocumentVersion[];
  loading: boolean;
  error: string | null;
  onRestore?: (version: DocumentVersion) => void;
  /** The version being restored, if any. */
  restoring?: string | null;
}) {
  const download = useDownloadDocument();
  return (
    <section aria-label="Earlier versions" className="mt-6 border-t border-gray-100 pt-4">
      <h3 className="flex items-center gap-2 text-sm font-medium text-gray-700">
        <History className="h-4 w-4" aria-hidden="true" /> Earlier versions
      </h3>
      {loading && <p className="mt-2 text-sm text-gray-500">Loading...</p>}
      {error && (
        <div className="mt-2">
          <ErrorPanel title={`Failed to load the earlier versions: ${error}`} />
        </div>
      )}
      {!loading && !error && versions.length === 0 && (
        <p className="mt-2 text-sm text-gray-500">
          None yet: renewing or editing keeps the current file here.
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
              {onRestore && (
                <Button
                  variant="secondary"
                  size="sm"
                  busy={restoring === version.id}
                  busyLabel="Restoring..."
                  disabled={Boolean(restoring)}
                  aria-label={`Restore version ${version.version_number} of ${version.name}`}
                  onClick={() => onRestore(version)}
                >
                  Restore
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
