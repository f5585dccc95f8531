import { readFile } from 'node:fs/promises';
import { CollectedText } from './text-extraction/collected-text.ts';
import { fileKind } from './text-extraction/file-kind.ts';
import { readPlainText } from './text-extraction/plain-text.ts';
import { checkImageSize, checkOfficeSize } from './text-extraction/size-checks.ts';
import { UnreadableFile } from './text-extraction/unreadable-file.ts';

/*
 * Reading the text of a stored file, in a background process (process-pool.ts): parsing a PDF,
 * a workbook or an image (OCR) takes from milliseconds to minutes of CPU and, for a hostile
 * file, any amount of memory, which must never be spent in the server's own process. The job
 * that asks for it (server/search/extract-text-job.ts) bounds the time by ending the process,
 * and the pool bounds its memory; the checks of size-checks.ts refuse, before decoding, files
 * whose headers say they would pass those bounds, and the limits here bound the work and the
 * text. The readers are imported on first use: most files are not PDFs.
 */

export interface ExtractTextArgs {
  /** The stored file (read here, so its bytes never cross threads). */
  path: string;
  /** The document's name and the object's declared type: hints for text formats only. */
  name: string;
  mimeType: string;
  maxPages: number;
  maxOcrPages: number;
  maxCharacters: number;
  maxImagePixels: number;
  maxUnpackedBytes: number;
}

export type ExtractTextResult =
  | { state: 'ready'; text: string; pages: number | null; truncated: boolean }
  | { state: 'unavailable'; reason: string };

/** The text of the file at `args.path`, or why it has none. */
export async function extractText(args: ExtractTextArgs): Promise<ExtractTextResult> {
  const bytes = new Uint8Array(await readFile(args.path));
  const kind = fileKind(bytes, args.name, args.mimeType);
  const text = new CollectedText(args.maxCharacters);
  let pages: number | null = null;
  try {
    switch (kind.kind) {
      case 'none':
        return { state: 'unavailable', reason: kind.reason };
      case 'pdf': {
        const { readPdf } = await import('./text-extraction/pdf-text.ts');
        pages = await readPdf(
          bytes,
          {
            maxPages: args.maxPages,
            ocrPages: { left: args.maxOcrPages },
            maxImagePixels: args.maxImagePixels,
          },
          text,
        );
        break;
      }
      case 'docx':
        await checkOfficeSize(bytes, {
          maxBytes: args.maxUnpackedBytes,
          damaged: 'The Word document is damaged and cannot be read',
        });
        await (await import('./text-extraction/office-text.ts')).readDocx(bytes, text);
        break;
      case 'xlsx':
        await checkOfficeSize(bytes, {
          maxBytes: args.maxUnpackedBytes,
          damaged: 'The Excel workbook is damaged and cannot be read',
        });
        await (await import('./text-extraction/office-text.ts')).readXlsx(bytes, text);
        break;
      case 'image':
        if (args.maxOcrPages < 1) {
          return { state: 'unavailable', reason: 'Images are not read on this installation' };
        }
        checkImageSize(bytes, args.maxImagePixels);
        text.add(await (await import('./text-extraction/ocr.ts')).recognizeImage(bytes));
        break;
      case 'text':
        readPlainText(bytes, kind.markup, text);
        break;
    }
  } catch (error) {
    if (error instanceof UnreadableFile) return { state: 'unavailable', reason: error.message };
    throw error;
  }
  return { state: 'ready', text: text.toString(), pages, truncated: text.truncated };
}
