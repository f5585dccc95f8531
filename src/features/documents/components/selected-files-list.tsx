import { AlertCircle, CheckCircle2, Clock, FileText, Loader2, X } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import type { Tone } from '../../../components/ui/tone.ts';
import { formatFileSize } from '../../../lib/format.ts';
import type { QueuedFile, UploadState } from '../hooks/use-upload-queue.ts';

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

function StateIndicator({ state }: { state: UploadState }) {
  const Icon = { queued: Clock, uploading: Loader2, done: CheckCircle2, failed: AlertCircle }[
    state
  ];
  const tone = STATE_TONES[state];
  return (
    <span
      data-tone={tone}
      className="inline-flex items-center gap-1 text-xs font-medium text-tone-700"
    >
      <Icon
        className={`h-4 w-4 ${state === 'uploading' ? 'animate-spin' : ''}`}
        aria-hidden="true"
      />
      {STATE_LABELS[state]}
    </span>
  );
}

/**
 * The selected files with their sizes and a remove control (spec §2); while and after
 * uploading, each file's state and, for a failure, the reason.
 */
export function SelectedFilesList({
  files,
  running,
  started,
  onRemove,
}: {
  files: QueuedFile[];
  running: boolean;
  /** Whether an upload was started: before that the state column is left out. */
  started: boolean;
  onRemove: (key: string) => void;
}) {
  if (files.length === 0) return null;
  return (
    <section aria-labelledby="selected-files-heading">
      <h2 id="selected-files-heading" className="text-sm font-medium text-gray-900">
        Selected files ({files.length})
      </h2>
      <ul className="mt-2 divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white">
        {files.map(({ key, file, state, error }) => (
          <li key={key} className="flex items-center gap-3 px-4 py-3">
            <FileText className="h-5 w-5 shrink-0 text-gray-400" aria-hidden="true" />
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium text-gray-900" title={file.name}>
                {file.name}
              </p>
              <p className="text-xs text-gray-500">{formatFileSize(file.size)}</p>
              {error && <p className="mt-0.5 text-xs text-destructive-700">{error}</p>}
            </div>
            {started && <StateIndicator state={state} />}
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
          </li>
        ))}
      </ul>
    </section>
  );
}
