import { UploadCloud } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { UPLOAD_ACCEPT } from '../../../lib/file-kinds.ts';

/**
 * Drag and drop, or browse, for several files (spec §2 Upload page). The picker offers the
 * spec's types; the 10MB hint is a hint only (spec §5).
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

  return (
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
        if (!disabled && event.dataTransfer.files.length)
          onFiles(Array.from(event.dataTransfer.files));
      }}
      className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-6 py-10 text-center transition-colors ${
        dragging ? 'border-blue-500 bg-blue-50' : 'border-gray-300 bg-white'
      }`}
    >
      <UploadCloud className="h-10 w-10 text-gray-400" aria-hidden="true" />
      <p className="text-sm text-gray-700">
        Drag and drop files here, or{' '}
        <button
          type="button"
          onClick={() => inputRef.current?.click()}
          disabled={disabled}
          className="font-medium text-blue-600 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-50"
        >
          browse
        </button>{' '}
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
          if (event.target.files?.length) onFiles(Array.from(event.target.files));
          // Choosing the same file again after removing it must fire a change event.
          event.target.value = '';
        }}
      />
    </div>
  );
}
