/**
 * What the app can do with a file, decided by its extension (product-spec §5).
 */

export type PreviewKind = 'pdf' | 'image' | 'video' | 'audio' | 'text' | 'office' | 'other';

/** The file types the upload picker offers (spec §2, §5). */
export const UPLOAD_ACCEPT = '.pdf,.doc,.docx,.xls,.xlsx,.jpg,.jpeg,.png,.gif';

const UPLOAD_EXTENSIONS: ReadonlySet<string> = new Set(
  UPLOAD_ACCEPT.split(',').map((type) => type.slice(1)),
);

/**
 * Whether a file is of a type the upload accepts: the picker's types, also for files dropped
 * on the page, which the picker's filter never sees.
 */
export function isUploadAccepted(fileName: string): boolean {
  return UPLOAD_EXTENSIONS.has(fileExtension(fileName));
}

// Checked in this order: `ogg` is both a video and an audio extension, and the spec lists it
// under video first.
const PREVIEW_KINDS: ReadonlyArray<[Exclude<PreviewKind, 'other'>, ReadonlySet<string>]> = [
  ['pdf', new Set(['pdf'])],
  ['image', new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'svg'])],
  ['video', new Set(['mp4', 'webm', 'ogg', 'mov'])],
  ['audio', new Set(['mp3', 'wav', 'ogg', 'm4a'])],
  ['text', new Set(['txt', 'md'])],
  ['office', new Set(['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx'])],
];

/** Extensions whose content can be edited as plain text (spec §5). */
export const TEXT_EDITABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  'txt',
  'md',
  'csv',
  'json',
  'xml',
  'html',
  'css',
  'js',
  'ts',
  'jsx',
  'tsx',
]);

/** The lower-cased text after the last dot of the file name, or '' when there is none. */
export function fileExtension(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** How the preview modal shows a file. */
export function previewKind(fileName: string): PreviewKind {
  const extension = fileExtension(fileName);
  for (const [kind, extensions] of PREVIEW_KINDS) {
    if (extensions.has(extension)) return kind;
  }
  return 'other';
}

/**
 * Whether an office file is one Steward renders for its preview: Word (.docx) and Excel
 * (.xlsx); the older .doc and .xls, and PowerPoint, are offered for download.
 */
export function isRenderedOffice(fileName: string): boolean {
  return ['docx', 'xlsx'].includes(fileExtension(fileName));
}

/** Whether the edit-content modal can edit the file. */
export function isTextEditable(fileName: string): boolean {
  return TEXT_EDITABLE_EXTENSIONS.has(fileExtension(fileName));
}

const MIME_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  webm: 'video/webm',
  ogg: 'video/ogg',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  txt: 'text/plain;charset=utf-8',
  md: 'text/markdown;charset=utf-8',
  csv: 'text/csv;charset=utf-8',
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html;charset=utf-8',
  css: 'text/css;charset=utf-8',
  js: 'text/javascript;charset=utf-8',
  ts: 'text/plain;charset=utf-8',
  jsx: 'text/plain;charset=utf-8',
  tsx: 'text/plain;charset=utf-8',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/**
 * The media type for a file name. Browsers leave `File.type` empty for many types (e.g. `.md`),
 * and a preview must not depend on what the server guessed.
 */
export function mimeTypeFor(fileName: string): string {
  return MIME_TYPES[fileExtension(fileName)] ?? 'application/octet-stream';
}
