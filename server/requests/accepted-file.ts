/**
 * The files a person may send through a document request link: the types the app's upload
 * accepts (PDF, Word, Excel, JPEG, PNG, GIF: `UPLOAD_ACCEPT` in src/lib/file-kinds.ts), each
 * checked on its first bytes, so that a page of HTML or a script named `certificate.pdf` is
 * refused before it is stored. The name's extension says which type the sender means; the
 * bytes must be of that type's format.
 */

/** A type that may be sent, with the media type it is stored and served as. */
export interface AcceptedType {
  /** The extension as the name has it, lower-cased (`jpeg` stays `jpeg`). */
  extension: string;
  mimetype: string;
}

/** Bytes enough to tell every accepted type (a PDF's header may come within its first KiB). */
export const SNIFF_BYTES = 1024;

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const startsWith = (bytes: Uint8Array, signature: number[]) =>
  signature.every((byte, i) => bytes[i] === byte);

const ZIP = [0x50, 0x4b, 0x03, 0x04];
// The compound file of Word 97–2003 and Excel 97–2003 documents.
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const TYPES: Record<string, { mimetype: string; matches: (head: Uint8Array) => boolean }> = {
  pdf: {
    mimetype: 'application/pdf',
    matches: (head) => Buffer.from(head.subarray(0, SNIFF_BYTES)).includes('%PDF-'),
  },
  docx: {
    mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    matches: (head) => startsWith(head, ZIP),
  },
  xlsx: {
    mimetype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    matches: (head) => startsWith(head, ZIP),
  },
  doc: { mimetype: 'application/msword', matches: (head) => startsWith(head, OLE2) },
  xls: { mimetype: 'application/vnd.ms-excel', matches: (head) => startsWith(head, OLE2) },
  jpg: { mimetype: 'image/jpeg', matches: (head) => startsWith(head, [0xff, 0xd8, 0xff]) },
  jpeg: { mimetype: 'image/jpeg', matches: (head) => startsWith(head, [0xff, 0xd8, 0xff]) },
  png: {
    mimetype: 'image/png',
    matches: (head) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  gif: {
    mimetype: 'image/gif',
    matches: (head) => startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a')),
  },
};

/** The words of the upload page and of every refusal. */
export const ACCEPTED_TYPES_TEXT = 'a PDF, Word or Excel file, or a JPEG, PNG or GIF image';

/** The lower-cased extension of a file name ('' without one). */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/** Whether a name's extension is one of the accepted types. */
export function acceptedExtension(fileName: string): boolean {
  return Object.hasOwn(TYPES, extensionOf(fileName));
}

/**
 * The type of a file named `fileName` whose bytes start with `head`, or why it is refused: an
 * empty file, a type the page does not take, or bytes of another format than the name says.
 */
export function acceptedType(
  fileName: string,
  head: Uint8Array,
): { ok: true; type: AcceptedType } | { ok: false; reason: string } {
  const extension = extensionOf(fileName);
  const type = Object.hasOwn(TYPES, extension) ? TYPES[extension] : undefined;
  if (!type) return { ok: false, reason: `Please send ${ACCEPTED_TYPES_TEXT}.` };
  if (head.byteLength === 0) return { ok: false, reason: 'The file is empty.' };
  if (!type.matches(head)) {
    return {
      ok: false,
      reason: `This file is not the .${extension} file its name says. Please send ${ACCEPTED_TYPES_TEXT}.`,
    };
  }
  return { ok: true, type: { extension, mimetype: type.mimetype } };
}

/**
 * The chunks of `body`, after its first `SNIFF_BYTES` (or all of it, when shorter) were handed
 * to `check`, which may throw to refuse the file before anything is written.
 */
export async function* checkedHead(
  body: AsyncIterable<Uint8Array>,
  check: (head: Uint8Array) => void,
): AsyncGenerator<Uint8Array> {
  const held: Uint8Array[] = [];
  let size = 0;
  let checked = false;
  for await (const chunk of body) {
    if (checked) {
      yield chunk;
      continue;
    }
    held.push(chunk);
    size += chunk.byteLength;
    if (size >= SNIFF_BYTES) {
      check(Buffer.concat(held));
      checked = true;
      yield* held;
      held.length = 0;
    }
  }
  if (!checked) {
    check(Buffer.concat(held));
    yield* held;
  }
}
