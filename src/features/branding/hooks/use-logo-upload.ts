import { useState } from 'react';
import { useUploadLogo } from '../api/logo.ts';
import { logoFileProblem } from '../lib/validate-logo.ts';

/**
 * Choosing and uploading a logo file. A file that is not a logo is not kept, and `problem` says
 * why in the specification's words (§5), for the field to show.
 */
export function useLogoUpload(organizationId: string) {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const uploading = useUploadLogo(organizationId);

  const choose = (chosen: File) => {
    const found = logoFileProblem(chosen);
    setProblem(found);
    setFile(found ? null : chosen);
  };

  /** Uploads the chosen file; `onStored` runs once it is stored. */
  const upload = (onStored: () => void) => {
    if (file) uploading.mutate(file, { onSuccess: onStored });
  };

  return { file, problem, uploading: uploading.isPending, choose, upload };
}
