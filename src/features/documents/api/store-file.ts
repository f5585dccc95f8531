import { mimeTypeFor } from '../../../lib/file-kinds.ts';
import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENTS_BUCKET } from '../../../lib/documents.ts';
import { apiEndpoint } from './api-endpoint.ts';

export interface StoreFileOptions {
  /** The file's SHA-256 (hex), kept as its user metadata: the record where storage computes none. */
  sha256?: string | null;
  /** Bytes sent so far, as they go. */
  onProgress?: (sent: number, total: number) => void;
}

/**
 * Stores a new file's bytes in the `documents` bucket under `objectName`; never overwrites. The
 * Storage API's own upload request (what supabase-js sends), made with XMLHttpRequest: the only
 * browser request that reports how much of its body has been sent.
 */
export async function storeDocumentFile(
  objectName: string,
  file: File,
  options: StoreFileOptions = {},
): Promise<void> {
  const { url, headers } = await apiEndpoint();
  const path = objectName.split('/').map(encodeURIComponent).join('/');
  await new Promise<void>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${url}/storage/v1/object/${DOCUMENTS_BUCKET}/${path}`);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.setRequestHeader('x-upsert', 'false');
    request.setRequestHeader('cache-control', 'max-age=3600');
    request.setRequestHeader('Content-Type', file.type || mimeTypeFor(file.name));
    if (options.sha256) {
      request.setRequestHeader('x-metadata', btoa(JSON.stringify({ sha256: options.sha256 })));
    }
    request.upload.onprogress = (event) => options.onProgress?.(event.loaded, file.size);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        options.onProgress?.(file.size, file.size);
        resolve();
        return;
      }
      let message = 'Upload failed';
      try {
        const body = JSON.parse(request.responseText) as { message?: string; error?: string };
        message = body.message || body.error || message;
      } catch {
        // Not JSON: the generic text.
      }
      reject(new Error(message));
    };
    request.onerror = () => reject(new Error('Upload failed: the connection was lost'));
    request.send(file);
  });
}

/** Removes stored files by object name. */
export async function removeDocumentFiles(objectNames: string[]): Promise<void> {
  const { error } = await supabase().storage.from(DOCUMENTS_BUCKET).remove(objectNames);
  if (error) throw new Error(error.message || 'Delete failed');
}
