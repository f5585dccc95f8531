import { UploadCloud } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { isUploadAccepted, UPLOAD_ACCEPT } from '../../../lib/file-kinds.ts';

/** Why dropped files were left out: the picker's types, named, and the files refused. */
export function refusedFilesMessage(names: readonly string[]): string {
  const list = names.join(', ');
  return names.length === 1
    ? `${list} was not added: only PDF, Word, Excel and image files (JPG, PNG, GIF) can be uploaded.`
    : `${list} were not added: only PDF, Word, Excel and image files (JPG, PNG, GIF) can be uploaded.`;
}

/**
 * Drag and drop, or browse, for several files (spec §2 Upload page). The picker offers the
 * spec's types; dropped files, which no picker filtered, are checked here against the same
 * types, and the others named and left out. The 10MB hint is a hint only (spec §5).
 */
export function FileDropZone({
  onFiles,
  disabled = false,
}: {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const [refused, setRefused] = useState<string[]>([]);

  const takeDropped = (files: File[]) => {
    const accepted = files.filter((file) => isUploadAccepted(file.name));
    setRefused(files.filter((file) => !isUploadAccepted(file.name)).map((file) => file.name));
    if (accepted.length) onFiles(accepted);
  };

  return (
    <div className="space-y-2">
      <div
        onDragEnter={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (!disabled && event.dataTransfer.files.length) {
            takeDropped(Array.from(event.dataTransfer.files));
          }
        }}
        data-tone="info"
        className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-6 py-10 text-center transition-colors ${
          dragging ? 'border-tone-500 bg-tone-50' : 'border-gray-300 bg-white'
        }`}
      >
        <UploadCloud className="h-10 w-10 text-gray-400" aria-hidden="true" />
        <p className="text-sm text-gray-700">
          Drag and drop files here, or{' '}
          <Button
            variant="link"
            onClick={() => inputRef.current?.click()}
            disabled={disabled}
            className="align-baseline"
          >
            browse
          </Button>{' '}
          to choose them.
        </p>
        <p id={hintId} className="text-xs text-gray-500">
          PDF, Word, Excel and images (JPG, PNG, GIF), up to 10MB each.
        </p>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={UPLOAD_ACCEPT}
          disabled={disabled}
          aria-label="Choose files to upload"
          aria-describedby={hintId}
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => {
            if (event.target.files?.length) {
              setRefused([]);
              onFiles(Array.from(event.target.files));
            }
            // Choosing the same file again after removing it must fire a change event.
            event.target.value = '';
          }}
        />
      </div>
      <FormError>{refused.length > 0 ? refusedFilesMessage(refused) : null}</FormError>
    </div>
  );
}
