import type { UploadOutcome } from '../hooks/use-upload-queue.ts';

/**
 * The notice after an upload with failures (spec §8 `Upload failed: {message}`): which files
 * failed and why, and that the others were kept.
 */
export function uploadFailureMessage({ succeeded, failed }: UploadOutcome): string {
  const reasons = failed.map((item) => `${item.file.name} (${item.error ?? 'Upload failed'})`);
  if (succeeded.length === 0 && failed.length === 1) {
    return `Upload failed: ${failed[0]!.error ?? 'Unknown error'}`;
  }
  const total = succeeded.length + failed.length;
  const kept =
    succeeded.length === 0
      ? ''
      : ` The other ${succeeded.length === 1 ? 'file was' : `${succeeded.length} files were`} uploaded.`;
  return `Upload failed: ${failed.length} of ${total} files could not be uploaded: ${reasons.join(', ')}.${kept}`;
}
