import { Download, FileArchive, Upload } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { FileDrop } from '../../components/ui/file-drop.tsx';
import { ErrorPanel } from '../../components/ui/form-error.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { formatDateTime, formatFileSize } from '../../lib/format.ts';
import { useSession } from '../../lib/session.tsx';
import {
  useDownloadExport,
  useLatestExport,
  useLatestImport,
  useStartExport,
  useStartImport,
  type OrganizationExport,
  type OrganizationImport,
} from './api/transfer.ts';

/**
 * "Export & import" (admins, on the Activity page): start an export of every document as one
 * ZIP with a manifest, follow it, download it; import such a ZIP into this organisation.
 */
export function TransferPanel() {
  return (
    <Card as="section" aria-labelledby="transfer-heading" className="space-y-4">
      <div>
        <h2
          id="transfer-heading"
          className="flex items-center gap-2 text-lg font-semibold text-gray-900"
        >
          <FileArchive className="h-5 w-5 text-gray-500" aria-hidden="true" /> Export & import
        </h2>
        <p className="text-sm text-gray-600">
          Download all documents of your organization as one ZIP, in folders by category, with a
          manifest of their properties and history. Import such a ZIP to add its documents here.
        </p>
      </div>
      <ExportControls />
      <ImportControls />
    </Card>
  );
}

const documents = (count: number | null) => `${count ?? 0} document${count === 1 ? '' : 's'}`;

function exportStatus(row: OrganizationExport): string {
  switch (row.status) {
    case 'queued':
      return 'Export queued...';
    case 'running':
      return `Preparing the export... ${row.progress}%`;
    case 'ready':
      return `Export ready: ${documents(row.document_count)}, ${formatFileSize(row.size ?? 0)}. Available until ${formatDateTime(row.expires_at)}.`;
    case 'failed':
      return `The export failed: ${row.error ?? 'unknown error'}`;
    default:
      return 'The last export has expired. Start a new one to download your documents.';
  }
}

function ExportControls() {
  const latest = useLatestExport();
  const start = useStartExport();
  const [includeVersions, setIncludeVersions] = useState(false);
  const download = useDownloadExport();
  const queryClient = useQueryClient();
  const row = latest.data;
  const running = row?.status === 'queued' || row?.status === 'running';

  // A finished export is in the history above.
  const status = row?.status;
  useEffect(() => {
    if (status === 'ready' || status === 'failed') {
      void queryClient.invalidateQueries({ queryKey: ['activity'] });
    }
  }, [status, queryClient]);

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button
          icon={FileArchive}
          busy={start.isPending}
          busyLabel="Starting..."
          disabled={running}
          onClick={() => start.mutate(includeVersions)}
        >
          Start export
        </Button>
        <Checkbox
          checked={includeVersions}
          onChange={(event) => setIncludeVersions(event.target.checked)}
          label="Include earlier versions"
        />
        {row?.status === 'ready' && (
          <Button
            variant="secondary"
            icon={Download}
            busy={download.isPending}
            busyLabel="Preparing..."
            onClick={() => download.mutate(row)}
          >
            Download
          </Button>
        )}
      </div>
      {row && (
        <p role="status" className="text-sm text-gray-700">
          {exportStatus(row)}
        </p>
      )}
      {latest.isError && (
        <ErrorPanel
          title={`The export status could not be loaded: ${errorMessage(latest.error)}`}
        />
      )}
    </div>
  );
}

function importStatus(row: OrganizationImport): string {
  switch (row.status) {
    case 'queued':
    case 'running':
      return 'Importing...';
    case 'done':
      return `Imported ${documents(row.document_count)}.`;
    default:
      return `The import failed: ${row.error ?? 'unknown error'}. Nothing was imported.`;
  }
}

function ImportControls() {
  const { profile } = useSession();
  const latest = useLatestImport();
  const start = useStartImport();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const row = latest.data;
  const running = row?.status === 'queued' || row?.status === 'running';

  // Documents added by a finished import appear in every list, and the import in the history.
  const status = row?.status;
  useEffect(() => {
    if (status === 'done') void queryClient.invalidateQueries({ queryKey: ['documents'] });
    if (status === 'done' || status === 'failed') {
      void queryClient.invalidateQueries({ queryKey: ['activity'] });
    }
  }, [status, queryClient]);

  const startImport = () => {
    if (!file || !profile?.organization_id) return;
    start.mutate(
      { file, organizationId: profile.organization_id },
      {
        onSuccess: () => setFile(null),
      },
    );
  };

  return (
    <div className="space-y-2 border-t border-gray-200 pt-4">
      <FormField label="ZIP to import" hint="A ZIP exported from Steward.">
        {(field) => (
          <FileDrop
            {...field}
            accept=".zip,application/zip"
            chosen={file}
            disabled={start.isPending || running}
            onFiles={([chosen]) => chosen && setFile(chosen)}
          />
        )}
      </FormField>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          icon={Upload}
          busy={start.isPending}
          busyLabel="Uploading..."
          disabled={!file || running}
          onClick={startImport}
        >
          Import
        </Button>
      </div>
      {row && (
        <p role="status" className="text-sm text-gray-700">
          {importStatus(row)}
        </p>
      )}
    </div>
  );
}
