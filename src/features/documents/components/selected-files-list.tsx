import { AlertCircle, CheckCircle2, Clock, FileText, Loader2, X } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import type { Tone } from '../../../components/ui/tone.ts';
import { formatFileSize } from '../../../lib/format.ts';
import type { QueuedFile, UploadState } from '../hooks/use-upload-queue.ts';
import type { PropertyInput } from '../utils/property-values.ts';
import { DocumentPropertyFields } from './document-property-fields.tsx';

const STATE_LABELS: Record<UploadState, string> = {
  queued: 'Waiting',
  uploading: 'Uploading...',
  done: 'Uploaded',
  failed: 'Failed',
};

const STATE_TONES: Record<UploadState, Tone> = {
  queued: 'gray',
  uploading: 'info',
  done: 'success',
  failed: 'danger',
};

function StateIndicator({ item }: { item: QueuedFile }) {
  const { state, sent, file } = item;
  const Icon = { queued: Clock, uploading: Loader2, done: CheckCircle2, failed: AlertCircle }[
    state
  ];
  const tone = STATE_TONES[state];
  const percent = file.size > 0 ? Math.min(100, Math.floor((sent / file.size) * 100)) : 0;
  return (
    <span className="flex flex-col items-end gap-1">
      <span
        data-tone={tone}
        className="inline-flex items-center gap-1 text-xs font-medium text-tone-700"
      >
        <Icon
          className={`h-4 w-4 ${state === 'uploading' ? 'animate-spin' : ''}`}
          aria-hidden="true"
        />
        {STATE_LABELS[state]}
        {state === 'uploading' && ` ${percent}%`}
      </span>
      {state === 'uploading' && (
        <>
          <progress
            className="h-1.5 w-28"
            max={file.size}
            value={sent}
            aria-label={`Upload of ${file.name}`}
          />
          <span className="text-xs text-gray-500">
            {formatFileSize(sent)} of {formatFileSize(file.size)}
          </span>
        </>
      )}
    </span>
  );
}

/**
 * The selected files with their sizes and a remove control (spec §2); each file may have its
 * own category, expiry date, tags and description instead of the batch's; while and after
 * uploading, each file's state, the share of it sent, and for a failure the reason.
 */
export function SelectedFilesList({
  files,
  running,
  started,
  onRemove,
  batch,
  onDetails,
  categoryErrorOf,
}: {
  files: QueuedFile[];
  running: boolean;
  /** Whether an upload was started: before that the state column is left out. */
  started: boolean;
  onRemove: (key: string) => void;
  /** The batch form's values, where a file's own details start from. */
  batch: PropertyInput;
  onDetails: (key: string, details: PropertyInput | null) => void;
  /** Why a file's own details cannot be taken ("Please select a category for a.pdf."). */
  categoryErrorOf?: (key: string) => string | undefined;
}) {
  if (files.length === 0) return null;
  return (
    <section aria-labelledby="selected-files-heading">
      <h2 id="selected-files-heading" className="text-sm font-medium text-gray-900">
        Selected files ({files.length})
      </h2>
      <Card as="ul" padding="none" className="mt-2 divide-y divide-gray-100">
        {files.map((item) => {
          const { key, file, state, error, details } = item;
          return (
            <li key={key} className="px-4 py-3">
              <div className="flex items-center gap-3">
                <FileText className="h-5 w-5 shrink-0 text-gray-400" aria-hidden="true" />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-gray-900" title={file.name}>
                    {file.name}
                  </p>
                  <p className="text-xs text-gray-500">{formatFileSize(file.size)}</p>
                  {error && <p className="mt-0.5 text-xs text-destructive-700">{error}</p>}
                </div>
                {started && <StateIndicator item={item} />}
                {state !== 'done' && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => onDetails(key, details ? null : batch)}
                    disabled={running}
                    aria-expanded={details !== null}
                    aria-label={`Own details for ${file.name}`}
                  >
                    {details ? 'Use batch details' : 'Own details'}
                  </Button>
                )}
                {state !== 'done' && (
                  <Button
                    variant="ghost"
                    size="icon"
                    onClick={() => onRemove(key)}
                    disabled={running}
                    aria-label={`Remove ${file.name}`}
                    title="Remove"
                  >
                    <X className="h-4 w-4" aria-hidden="true" />
                  </Button>
                )}
              </div>
              {details && state !== 'done' && (
                <fieldset className="mt-3 rounded-md border border-gray-200 p-3">
                  <legend className="px-1 text-xs font-medium text-gray-700">
                    Details of {file.name}
                  </legend>
                  <DocumentPropertyFields
                    values={details}
                    onChange={(next) => onDetails(key, next)}
                    disabled={running}
                    categoryError={categoryErrorOf?.(key)}
                  />
                </fieldset>
              )}
            </li>
          );
        })}
      </Card>
    </section>
  );
}
