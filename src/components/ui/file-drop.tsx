import { FileText, UploadCloud } from 'lucide-react';
import { useRef, useState } from 'react';
import { formatFileSize } from '../../lib/format.ts';
import { Button } from './button.tsx';

export interface FileDropProps {
  /** With `FormField`, its control props (`{...field}`): the field's label names the picker. */
  id?: string;
  invalid?: boolean;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  'aria-required'?: boolean;
  /** The picker's name where no field label is shown. */
  'aria-label'?: string;
  /** The picker's filter, as `<input accept>`: ".zip,application/zip". */
  accept?: string;
  multiple?: boolean;
  disabled?: boolean;
  /** The file chosen so far, named in the zone (pickers of one file). */
  chosen?: File | null;
  /**
   * Every file chosen (`picker`, which offered only `accept`) or dropped (`drop`, which nothing
   * filtered); the caller decides which it takes and says why not.
   */
  onFiles: (files: File[], source: 'picker' | 'drop') => void;
  /** `lg` for a page's main drop zone, `sm` for a field in a dialog. */
  size?: 'sm' | 'lg';
}

/**
 * Choosing files: drag and drop onto the zone, or Browse (the keyboard's way in). The file
 * input itself is hidden but keeps its name, so labels, screen readers and tests reach it.
 * Dropped files are handed over like chosen ones; checking them is the caller's, shown
 * through the field's error.
 */
export function FileDrop({
  invalid = false,
  accept,
  multiple = false,
  disabled = false,
  chosen = null,
  onFiles,
  size = 'sm',
  ...field
}: FileDropProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const large = size === 'lg';
  const border = invalid
    ? 'border-destructive-500 bg-destructive-50'
    : dragging
      ? 'border-primary-500 bg-primary-50'
      : 'border-gray-300 bg-white';

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
        if (!disabled && event.dataTransfer.files.length) {
          onFiles(Array.from(event.dataTransfer.files), 'drop');
        }
      }}
      className={`relative flex flex-col items-center rounded-lg border-2 border-dashed text-center transition-colors focus-within:ring-2 focus-within:ring-primary-500/30 ${border} ${
        large ? 'gap-3 px-6 py-10' : 'gap-2 px-4 py-5'
      } ${disabled ? 'opacity-60' : ''}`}
    >
      <UploadCloud
        className={`${large ? 'h-10 w-10' : 'h-7 w-7'} text-gray-400`}
        aria-hidden="true"
      />
      {chosen ? (
        <p className="flex max-w-full items-center gap-1.5 text-sm text-gray-800">
          <FileText className="h-4 w-4 shrink-0 text-gray-500" aria-hidden="true" />
          <span className="min-w-0 font-medium break-all">{chosen.name}</span>
          <span className="shrink-0 text-gray-500">({formatFileSize(chosen.size)})</span>
        </p>
      ) : null}
      <p className="text-sm text-gray-700">
        {chosen
          ? 'Drop another file here, or '
          : `Drag and drop ${multiple ? 'files' : 'a file'} here, or `}
        <Button
          variant="link"
          onClick={() => inputRef.current?.click()}
          disabled={disabled}
          className="align-baseline"
        >
          browse
        </Button>{' '}
        to choose {multiple ? 'them' : 'one'}.
      </p>
      <input
        {...field}
        ref={inputRef}
        type="file"
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        className="sr-only"
        tabIndex={-1}
        onChange={(event) => {
          if (event.target.files?.length) onFiles(Array.from(event.target.files), 'picker');
          // Choosing the same file again (after removing it, or after a refusal) must fire.
          event.target.value = '';
        }}
      />
    </div>
  );
}
