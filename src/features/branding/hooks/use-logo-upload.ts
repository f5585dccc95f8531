import { useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { useUploadLogo } from '../api/logo.ts';
import { logoFileProblem } from '../lib/validate-logo.ts';

/** Choosing and uploading a logo file, with the specification's messages (§5, §8). */
export function useLogoUpload(organizationId: string) {
  const { alert } = useFeedback();
  const [file, setFile] = useState<File | null>(null);
  const uploading = useUploadLogo(organizationId);

  /** Keeps `chosen` when it is a valid logo; otherwise says why and returns false. */
  const choose = async (chosen: File | null): Promise<boolean> => {
    if (!chosen) {
      setFile(null);
      return true;
    }
    const problem = logoFileProblem(chosen);
    if (problem) {
      setFile(null);
      await alert(problem);
      return false;
    }
    setFile(chosen);
    return true;
  };

  /** Uploads the chosen file; resolves true when it was stored. */
  const upload = async (): Promise<boolean> => {
    if (!file) return false;
    try {
      await uploading.mutateAsync(file);
      return true;
    } catch (error) {
      console.error('Logo upload failed', error);
      await alert('Failed to upload logo.');
      return false;
    }
  };

  return { file, uploading: uploading.isPending, choose, upload };
}
