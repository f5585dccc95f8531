import { mimeTypeFor } from '../../../lib/file-kinds.ts';
import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENTS_BUCKET } from '../../../lib/documents.ts';
import { apiEndpoint } from './api-endpoint.ts';
import { succeeded } from '../../../lib/errors.ts';

export interface StoreFileOptions {
  /** The file's SHA-256 (hex), kept as its user metadata: the record where storage computes none. */
  sha256?: string | null;
  /** Bytes sent so far, as they go. */
  onProgress?: (sent: number, total: number) => void;
}

/**
 * Files larger than this are uploaded resumably (Supabase's advice for its TUS endpoint): on
 * church Wi-Fi a dropped connection then costs a few seconds, not the whole file.
 */
export const RESUMABLE_UPLOAD_THRESHOLD = 6 * 1024 * 1024;

/** The chunk size Supabase Storage's resumable endpoint requires. */
const RESUMABLE_CHUNK_SIZE = 6 * 1024 * 1024;

/**
 * Stores a new file's bytes in the `documents` bucket under `objectName`; never overwrites.
 * Large files go through the resumable endpoint, the others in one request.
 */
export async function storeDocumentFile(
  objectName: string,
  file: File,
  options: StoreFileOptions = {},
): Promise<void> {
  if (file.size > RESUMABLE_UPLOAD_THRESHOLD) return storeResumably(objectName, file, options);
  return storeInOneRequest(objectName, file, options);
}

/**
 * The Storage API's own upload request (what supabase-js sends), made with XMLHttpRequest: the
 * only browser request that reports how much of its body has been sent.
 */
async function storeInOneRequest(
  objectName: string,
  file: File,
  options: StoreFileOptions,
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
      reject(new Error(storageMessage(request.responseText) ?? 'Upload failed'));
    };
    request.onerror = () => reject(new Error(CONNECTION_LOST));
    request.send(file);
  });
}

/**
 * Supabase Storage's resumable upload (TUS, with tus-js-client, loaded only when needed): the
 * file goes in 6 MB chunks, and after a dropped connection the upload asks the server how much
 * it has and goes on from there, retrying for a few minutes before it gives up. Each request
 * carries the current access token, which a long upload may outlive.
 */
async function storeResumably(
  objectName: string,
  file: File,
  options: StoreFileOptions,
): Promise<void> {
  const [{ Upload }, { url, headers }] = await Promise.all([
    import('tus-js-client'),
    apiEndpoint(),
  ]);
  await new Promise<void>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: `${url}/storage/v1/upload/resumable`,
      // The access token is set per request (below): XMLHttpRequest joins a header set twice.
      headers: { apikey: headers.apikey!, 'x-upsert': 'false' },
      chunkSize: RESUMABLE_CHUNK_SIZE,
      retryDelays: [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000, 60_000, 60_000],
      // Each attempt names a new object, so an upload is never resumed from another page.
      storeFingerprintForResuming: false,
      metadata: {
        bucketName: DOCUMENTS_BUCKET,
        objectName,
        contentType: file.type || mimeTypeFor(file.name),
        cacheControl: '3600',
        ...(options.sha256 ? { metadata: JSON.stringify({ sha256: options.sha256 }) } : {}),
      },
      onBeforeRequest: async (request) => {
        const current = await apiEndpoint();
        request.setHeader('Authorization', current.headers.Authorization!);
      },
      onProgress: (sent, total) => options.onProgress?.(sent, total),
      onSuccess: () => {
        options.onProgress?.(file.size, file.size);
        resolve();
      },
      onError: (error) => {
        const response = (error as { originalResponse?: { getBody(): string } | null })
          .originalResponse;
        reject(new Error((response && storageMessage(response.getBody())) ?? CONNECTION_LOST));
      },
    });
    upload.start();
  });
}

const CONNECTION_LOST = 'Upload failed: the connection was lost';

/** The message of a Storage error body; null when the body is not one. */
function storageMessage(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { message?: string; error?: string };
    return parsed.message || parsed.error || null;
  } catch {
    return null;
  }
}

/** Removes stored files by object name. */
export async function removeDocumentFiles(objectNames: string[]): Promise<void> {
  await succeeded(supabase().storage.from(DOCUMENTS_BUCKET).remove(objectNames), 'Delete failed');
}
