import { useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { uploadLogo } from '../api/logo.ts';
import { readFileBytes } from '../lib/read-file-bytes.ts';
import { logoFileProblem } from '../lib/validate-logo.ts';

/** Choosing and uploading a logo file, with the specification's messages (§5, §8). */
export function useLogoUpload(organizationId: string, onUploaded: (bytes: ArrayBuffer) => void) {
  const { alert } = useFeedback();
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);

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

  const upload = async (): Promise<boolean> => {
    if (!file) return false;
    setUploading(true);
    try {
      const bytes = await readFileBytes(file);
      await uploadLogo(organizationId, bytes);
      onUploaded(bytes);
      return true;
    } catch (error) {
      console.error('Logo upload failed', error);
      await alert('Failed to upload logo.');
      return false;
    } finally {
      setUploading(false);
    }
  };

  return { file, uploading, choose, upload };
}
