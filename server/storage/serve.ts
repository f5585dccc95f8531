import { Readable } from 'node:stream';
import { storageErrors } from './errors.ts';
import type { FileStore } from './file-store.ts';
import { isStoredVersion } from './file-store.ts';
import { parseMediaType } from './media-type.ts';
import type { ObjectRow } from './queries.ts';

/** How a browser may show a file served from the API's own origin. */
type DisplayKind = 'pdf' | 'media' | 'active';

// The short list of types shown inline: raster images, common audio and video, and plain text
// with a charset cannot run script or submit forms. Everything else (SVG, HTML, XML, text
// without a charset, unknown types, and stored types that are not exactly one media type) is
// only ever offered as a download, sandboxed. The SPA previews from fetched blobs, so the
// disposition of a type does not change what it can preview.
const INLINE_MEDIA = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/apng',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'audio/mpeg',
  'audio/mp4',
  'audio/aac',
  'audio/ogg',
  'audio/wav',
  'audio/wave',
  'audio/x-wav',
  'audio/webm',
  'audio/flac',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'video/quicktime',
]);

/** The `Content-Type` to send for a stored mimetype, and how it may be shown. */
function servedType(stored: unknown): { contentType: string; kind: DisplayKind } {
  const parsed = typeof stored === 'string' ? parseMediaType(stored) : null;
  // A type stored before uploads were checked this strictly is not repeated to the browser.
  if (!parsed) return { contentType: 'application/octet-stream', kind: 'active' };
  const contentType = stored as string;
  if (parsed.essence === 'application/pdf') return { contentType, kind: 'pdf' };
  if (INLINE_MEDIA.has(parsed.essence)) return { contentType, kind: 'media' };
  if (parsed.essence === 'text/plain' && parsed.charset) return { contentType, kind: 'media' };
  return { contentType, kind: 'active' };
}

// Per-file policies replace the API's default `frame-ancestors 'none'` (server/http/middleware.ts):
// the SPA frames previews from its own origin. Chrome's PDF viewer refuses to load in a
// sandboxed document, so PDFs get no `sandbox` (a PDF cannot run the page's script anyway).
const CONTENT_SECURITY_POLICY: Record<DisplayKind, string> = {
  pdf: "frame-ancestors 'self'",
  media:
    "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
  active: "sandbox; default-src 'none'; style-src 'unsafe-inline'",
};

const HEADER_SAFE = /^[\x20-\x7e]*$/;

/** `attachment` or `inline` with the file name in both the plain and the RFC 5987 form. */
function contentDisposition(type: 'attachment' | 'inline', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encodeRFC5987(filename)}`;
}

const encodeRFC5987 = (value: string) =>
  encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

export interface ServeOptions {
  method: string;
  requestHeaders: Headers;
  /** The `download` query parameter: present (even empty) means "save, don't show". */
  download: string | undefined;
  /** The file name to give, when not the object's own (a preview names the document). */
  filename?: string;
}

interface ByteRange {
  start: number;
  end: number;
}

/**
 * A single `bytes=` range (RFC 9110). Null means "serve the whole file": no range, several
 * ranges, or one that does not parse. `unsatisfiable` means 416.
 */
function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(\d{0,15})\s*-\s*(\d{0,15})\s*$/i.exec(header);
  if (!match) return null;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

function etagMatches(header: string | null, eTag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => strip(tag) === strip(eTag));
}

/**
 * The response for an object's bytes, with the storage server's headers (`Content-Type`,
 * `Content-Length`, `ETag`, `Last-Modified`, `Cache-Control`), `nosniff`, a per-kind
 * Content-Security-Policy and disposition, conditional requests and single byte ranges.
 */
export async function serveObject(
  store: FileStore,
  row: ObjectRow,
  options: ServeOptions,
): Promise<Response> {
  if (!isStoredVersion(row.version)) throw storageErrors.noSuchKey();
  const metadata = row.metadata ?? {};
  const { contentType: mimetype, kind } = servedType(metadata.mimetype);
  const filename = options.filename ?? row.name.slice(row.name.lastIndexOf('/') + 1);
  const cacheControl =
    typeof metadata.cacheControl === 'string' && HEADER_SAFE.test(metadata.cacheControl)
      ? metadata.cacheControl
      : 'no-cache';
  const lastModified = new Date(metadata.lastModified ?? row.updated_at ?? Date.now());

  const headers = new Headers({
    'Content-Type': mimetype,
    'Cache-Control': cacheControl,
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    'X-Robots-Tag': 'none',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY[kind],
  });
  if (typeof metadata.eTag === 'string' && HEADER_SAFE.test(metadata.eTag)) {
    headers.set('ETag', metadata.eTag);
  }
  if (!Number.isNaN(lastModified.getTime()))
    headers.set('Last-Modified', lastModified.toUTCString());
  if (options.download !== undefined) {
    headers.set(
      'Content-Disposition',
      contentDisposition('attachment', options.download || filename),
    );
  } else {
    headers.set(
      'Content-Disposition',
      contentDisposition(kind === 'active' ? 'attachment' : 'inline', filename),
    );
  }

  const eTag = headers.get('ETag');
  if (eTag && etagMatches(options.requestHeaders.get('if-none-match'), eTag)) {
    return new Response(null, { status: 304, headers });
  }

  // HEAD answers from the row alone: Hono turns HEAD into GET and drops the body, so a file
  // opened here would never be read or closed.
  if (options.method === 'HEAD') {
    if (typeof metadata.size === 'number') headers.set('Content-Length', String(metadata.size));
    return new Response(null, { status: 200, headers });
  }

  const file = await store.open(row.version);
  if (!file) throw storageErrors.noSuchKey();
  try {
    const { size } = file;
    const ifRange = options.requestHeaders.get('if-range');
    const range =
      ifRange && ifRange !== eTag ? null : parseRange(options.requestHeaders.get('range'), size);
    if (range === 'unsatisfiable') {
      await file.close();
      const error = storageErrors.invalidRange();
      return Response.json(error.toJSON(), {
        status: error.httpStatus,
        headers: { 'Content-Range': `bytes */${size}`, 'Cache-Control': 'no-store' },
      });
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? size - 1;
    headers.set('Content-Length', String(Math.max(0, end - start + 1)));
    if (range) headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
    const body =
      size === 0
        ? null
        : (Readable.toWeb(await file.stream({ start, end })) as ReadableStream<Uint8Array>);
    if (body === null) await file.close();
    return new Response(body, { status: range ? 206 : 200, headers });
  } catch (error) {
    await file.close().catch(() => undefined);
    throw error;
  }
}
