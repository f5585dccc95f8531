import { fileExtension } from '../../../lib/file-kinds.ts';

/**
 * The object name of a new upload: `documents/{organization_id}/{timestamp}-{random}.{ext}`
 * (docs/data-model.md). The user's file name is kept only in the row, so it can hold any
 * characters without touching the storage path; the random part keeps two uploads in the same
 * millisecond apart.
 */
export function newDocumentObjectName(
  organizationId: string,
  fileName: string,
  now: number = Date.now(),
  random: string = randomPart(),
): string {
  const extension = fileExtension(fileName).replace(/[^a-z0-9]/g, '');
  return `documents/${organizationId}/${now}-${random}${extension ? `.${extension}` : ''}`;
}

function randomPart(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(36).padStart(2, '0')).join('');
}
