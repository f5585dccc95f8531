import { useState } from 'react';
import { FileDrop } from '../../../components/ui/file-drop.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { isUploadAccepted, UPLOAD_ACCEPT } from '../../../lib/file-kinds.ts';

/** Why dropped files were left out: the picker's types, named, and the files refused. */
export function refusedFilesMessage(names: readonly string[]): string {
  const list = names.join(', ');
  return names.length === 1
    ? `${list} was not added: only PDF, Word, Excel and image files (JPG, PNG, GIF) can be uploaded.`
    : `${list} were not added: only PDF, Word, Excel and image files (JPG, PNG, GIF) can be uploaded.`;
}

/**
 * The upload page's files (spec §2 Upload page): drag and drop, or browse, for several files.
 * The picker offers the spec's types; dropped files, which no picker filtered, are checked
 * against the same types, and the others named under the zone and left out. `error` is the
 * form's ("Please select at least one file to upload."). The 10MB hint is a hint only (§5).
 */
export function FileDropZone({
  onFiles,
  disabled = false,
  error = null,
}: {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  error?: string | null;
}) {
  const [refused, setRefused] = useState<string[]>([]);

  const take = (files: File[], source: 'picker' | 'drop') => {
    // What the picker offered is taken as chosen (spec §5: the types are the picker's).
    const accepted = source === 'picker' ? files : files.filter((f) => isUploadAccepted(f.name));
    setRefused(files.filter((file) => !accepted.includes(file)).map((file) => file.name));
    if (accepted.length) onFiles(accepted);
  };

  return (
    <FormField
      label="Choose files to upload"
      hideLabel
      hint="PDF, Word, Excel and images (JPG, PNG, GIF), up to 10MB each."
      error={refused.length > 0 ? refusedFilesMessage(refused) : error}
    >
      {(field) => (
        <FileDrop
          {...field}
          size="lg"
          multiple
          accept={UPLOAD_ACCEPT}
          disabled={disabled}
          onFiles={take}
        />
      )}
    </FormField>
  );
}
