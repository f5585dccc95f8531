import { readFile } from 'node:fs/promises';
import { sanitizePreview } from './office-preview/sanitize.ts';
import { fileKind } from './text-extraction/file-kind.ts';
import { checkOfficeSize } from './text-extraction/size-checks.ts';
import { UnreadableFile } from './text-extraction/unreadable-file.ts';

/*
 * Rendering a Word or Excel file as HTML for its preview, in a background process
 * (process-pool.ts), under the bounds of reading its text (issue 22): its declared and real
 * unpacked size is checked before mammoth or exceljs parse anything (size-checks.ts), the pool
 * caps the process's memory, and the caller (server/previews/) bounds the time and takes turns
 * by organisation. The HTML is sanitised here, so nothing unsanitised leaves the process.
 */

export interface RenderOfficePreviewArgs {
  /** The stored file (read here, so its bytes never cross processes). */
  path: string;
  name: string;
  mimeType: string;
  maxUnpackedBytes: number;
  /** Rows and columns of each sheet shown; a line says what was left out. */
  maxRows: number;
  maxColumns: number;
  /** Bytes of pictures shown as `data:` URLs, all together; the rest by their description. */
  maxImageBytes: number;
  /** Bytes of HTML a preview may be; a larger one is refused rather than sent. */
  maxHtmlBytes: number;
}

export type RenderOfficePreviewResult =
  { state: 'ready'; html: string } | { state: 'unavailable'; reason: string };

/** Why a file is not rendered, for the kinds that are not Word or Excel. */
const OLD_FORMAT =
  'Only Word (.docx) and Excel (.xlsx) files can be previewed; older (.doc, .xls) and password-protected ones cannot. Download the file to open it.';
const NOT_OFFICE = 'This file is not a Word (.docx) or Excel (.xlsx) file that can be previewed';

/** The sanitised HTML of the Word or Excel file at `args.path`, or why there is none. */
export async function renderOfficePreview(
  args: RenderOfficePreviewArgs,
): Promise<RenderOfficePreviewResult> {
  const bytes = new Uint8Array(await readFile(args.path));
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    return { state: 'unavailable', reason: OLD_FORMAT };
  }
  const kind = fileKind(bytes, args.name, args.mimeType).kind;
  try {
    let html: string;
    if (kind === 'docx') {
      await checkOfficeSize(bytes, {
        maxBytes: args.maxUnpackedBytes,
        damaged: 'The Word document is damaged and cannot be read',
      });
      const { wordToHtml } = await import('./office-preview/word-html.ts');
      html = await wordToHtml(bytes, args.maxImageBytes);
    } else if (kind === 'xlsx') {
      await checkOfficeSize(bytes, {
        maxBytes: args.maxUnpackedBytes,
        damaged: 'The Excel workbook is damaged and cannot be read',
      });
      const { excelToHtml } = await import('./office-preview/excel-html.ts');
      html = await excelToHtml(bytes, { maxRows: args.maxRows, maxColumns: args.maxColumns });
    } else {
      return { state: 'unavailable', reason: NOT_OFFICE };
    }
    if (html.length > args.maxHtmlBytes) {
      return {
        state: 'unavailable',
        reason: `This file could not be previewed: its preview would be larger than ${Math.round(args.maxHtmlBytes / 1024 ** 2)} MiB`,
      };
    }
    const clean = sanitizePreview(html);
    return { state: 'ready', html: clean === '' ? '<p>This document is empty.</p>' : clean };
  } catch (error) {
    if (error instanceof UnreadableFile) return { state: 'unavailable', reason: error.message };
    throw error;
  }
}
