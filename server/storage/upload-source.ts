import { bodyChunks, declaredLength } from './body.ts';
import { storageErrors } from './errors.ts';
import { parseMediaType } from './media-type.ts';
import { multipartBoundary, readMultipartUpload } from './multipart.ts';

/** What an upload request carries, with the file's bytes still unread. */
export interface UploadSource {
  mimetype: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
  /** The file's size when the request states it (raw bodies with `Content-Length`). */
  declaredSize: number | undefined;
  body: AsyncIterable<Buffer>;
}

const HEADER_VALUE = /^[\x20-\x7e]*$/;

/**
 * Reads the upload body as storage-js sends it (supabase-compat.md §4.2): `multipart/form-data`
 * with `cacheControl`, optional `metadata` and a file part; or the raw bytes with
 * `content-type`, `cache-control` and an optional base64 JSON `x-metadata` header.
 */
export async function readUploadSource(request: Request): Promise<UploadSource> {
  const headers = request.headers;
  const contentType = headers.get('content-type') ?? '';
  const length = declaredLength(headers);
  const chunks = bodyChunks(request.body, length);

  if (/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    const upload = await readMultipartUpload(chunks, multipartBoundary(contentType));
    if (!upload.file) throw storageErrors.noContent();
    const cacheTime = upload.fields.get('cacheControl');
    const metadata = upload.fields.get('metadata') ?? upload.fields.get('userMetadata');
    return {
      mimetype: validMimeType(
        upload.fields.get('contentType') || upload.file.contentType || 'application/octet-stream',
      ),
      cacheControl: validCacheControl(cacheTime ? `max-age=${cacheTime}` : 'no-cache'),
      userMetadata: metadata === undefined ? null : parseMetadata(metadata),
      declaredSize: undefined,
      body: upload.file.body,
    };
  }

  const encodedMetadata = headers.get('x-metadata');
  return {
    mimetype: validMimeType(contentType || 'application/octet-stream'),
    cacheControl: validCacheControl(headers.get('cache-control') ?? 'no-cache'),
    userMetadata:
      encodedMetadata === null
        ? null
        : parseMetadata(Buffer.from(encodedMetadata, 'base64').toString('utf8')),
    declaredSize: length,
    body: chunks,
  };
}

/** The upload's media type, kept as given once it is exactly one type (see `parseMediaType`). */
export function validMimeType(value: string): string {
  const mimetype = value.trim();
  if (!parseMediaType(mimetype)) {
    throw storageErrors.invalidMimeType(mimetype.slice(0, 255).replace(/[^\x20-\x7e]/g, '?'));
  }
  return mimetype;
}

/** A `Cache-Control` value as given, when it is short printable text. */
export function validCacheControl(value: string): string {
  if (value.length > 255 || !HEADER_VALUE.test(value)) {
    throw storageErrors.invalidRequest('Invalid cache-control value');
  }
  return value;
}

/** User metadata is kept when it is a JSON object and ignored otherwise, as the storage server does. */
export function parseMetadata(json: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Whether a bucket's `allowed_mime_types` admit `mimetype`: the same type and subtype, or the
 * type with `/*`. Parameters such as `;charset=UTF-8` are not part of the comparison.
 */
export function mimeTypeAllowed(mimetype: string, allowed: readonly string[]): boolean {
  const [type, subtype] = essence(mimetype);
  return allowed.some((entry) => {
    const [allowedType, allowedSubtype] = essence(entry);
    if (allowedType === '*' && allowedSubtype === '*') return true;
    return allowedType === type && (allowedSubtype === '*' || allowedSubtype === subtype);
  });
}

function essence(mimetype: string): [string, string | undefined] {
  const [type = '', subtype] = mimetype.split(';')[0]!.trim().toLowerCase().split('/');
  return [type, subtype];
}
