/**
 * What a file really is, from its first bytes rather than its name or declared type, which
 * anyone can get wrong (a PDF saved as `.txt`, a text file called `.pdf`).
 */
export type FileKind =
  | { kind: 'pdf' | 'docx' | 'xlsx' | 'image' }
  | { kind: 'text'; markup: boolean }
  | { kind: 'none'; reason: string };

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  signature.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

// Raster images tesseract reads: PNG, JPEG, GIF, BMP, TIFF (both byte orders), WebP.
const IMAGE_SIGNATURES: [number[], number][] = [
  [[0x89, 0x50, 0x4e, 0x47], 0],
  [[0xff, 0xd8, 0xff], 0],
  [ascii('GIF8'), 0],
  [ascii('BM'), 0],
  [[0x49, 0x49, 0x2a, 0x00], 0],
  [[0x4d, 0x4d, 0x00, 0x2a], 0],
  [ascii('WEBP'), 8],
];

const MARKUP_NAME = /\.(html?|xhtml|xml|svg)$/i;
const MARKUP_TYPE =
  /^(text\/html|application\/xhtml\+xml|text\/xml|application\/xml|image\/svg\+xml)\b/i;

/** Whether the bytes look like text: no NUL byte in the first 8 KiB (UTF-16 aside). */
function looksLikeText(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return true;
  return !bytes.subarray(0, 8192).includes(0);
}

/** The kind of a file from its bytes; its name and declared type only tell markup from text. */
export function fileKind(bytes: Uint8Array, name: string, mimeType: string): FileKind {
  if (bytes.byteLength === 0) return { kind: 'none', reason: 'The file is empty' };
  // A PDF header may follow a little junk; readers accept it within the first kilobyte.
  if (Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-')) return { kind: 'pdf' };
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    // Office files are ZIP archives; their part names are stored uncompressed.
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (buffer.includes('word/document.xml')) return { kind: 'docx' };
    if (buffer.includes('xl/workbook.xml')) return { kind: 'xlsx' };
    return {
      kind: 'none',
      reason: 'Text is read from PDF, Word, Excel, text and image files only',
    };
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    // Password-protected Word and Excel files, and the older .doc and .xls, are this format.
    return {
      kind: 'none',
      reason: 'The file is password-protected or in an older Office format (.doc, .xls)',
    };
  }
  if (IMAGE_SIGNATURES.some(([signature, at]) => startsWith(bytes, signature, at))) {
    return { kind: 'image' };
  }
  if (looksLikeText(bytes)) {
    return { kind: 'text', markup: MARKUP_NAME.test(name) || MARKUP_TYPE.test(mimeType) };
  }
  return { kind: 'none', reason: 'Text is read from PDF, Word, Excel, text and image files only' };
}
