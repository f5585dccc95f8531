import { extractImages, getDocumentProxy } from 'unpdf';
import type { CollectedText } from './collected-text.ts';
import { rawImageToPnm, recognizeImage, type RawImage } from './ocr.ts';
import { PdfImageSizes } from './size-checks.ts';
import { UnreadableFile } from './unreadable-file.ts';

export interface PdfLimits {
  maxPages: number;
  /** Pages that may still be read by OCR (shared with the rest of the file). */
  ocrPages: { left: number };
  /** Most pixels of the images of a page read by OCR, judged before they are decoded. */
  maxImagePixels: number;
}

// A page with fewer characters than this in its text layer is taken for a scan.
const SCANNED_PAGE_CHARACTERS = 20;
// Images smaller than this (icons, rules, logos) are not worth reading.
const SMALLEST_SCAN_PIXELS = 200 * 200;

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

/**
 * The text of a PDF, page by page up to `maxPages`: its text layer, or for a page without one
 * (a scan), the words OCR reads in its largest image. Returns the pages read.
 */
export async function readPdf(
  bytes: Uint8Array,
  limits: PdfLimits,
  text: CollectedText,
): Promise<number> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js takes over (detaches) the buffer it is given, and the size check may
    // need the bytes later.
    pdf = await getDocumentProxy(bytes.slice(), {
      verbosity: 0,
      disableFontFace: true,
      // pdf.js leaves out (never decodes) a larger image; the check below says so first.
      maxImageSize: limits.maxImagePixels,
    });
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'PasswordException') throw new UnreadableFile('The PDF is password-protected');
    throw new UnreadableFile('The PDF is damaged and cannot be read');
  }
  try {
    const pages = Math.min(pdf.numPages, limits.maxPages);
    if (pdf.numPages > pages) text.markTruncated();
    // Read only when a page needs OCR: most PDFs have a text layer on every page.
    let imageSizes: PdfImageSizes | null = null;
    let read = 0;
    for (let number = 1; number <= pages; number++) {
      if (text.full) {
        text.markTruncated();
        break;
      }
      const page = await pdf.getPage(number).catch(() => null);
      read = number;
      if (!page) continue;
      const content = await page.getTextContent().catch(() => ({ items: [] }));
      const pageText = (content.items as TextItemLike[])
        .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ' '))
        .join('');
      page.cleanup();
      if (pageText.replace(/\s/g, '').length >= SCANNED_PAGE_CHARACTERS) {
        text.add(pageText);
      } else if (limits.ocrPages.left > 0) {
        limits.ocrPages.left--;
        imageSizes ??= await PdfImageSizes.of(bytes);
        imageSizes.checkPage(number, limits.maxImagePixels);
        text.add(pageText);
        text.add(await readScannedPage(pdf, number));
      } else {
        text.add(pageText);
        text.markTruncated();
      }
    }
    return read;
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/** OCR of the largest image of a page, the scan itself on a scanned page. */
async function readScannedPage(
  pdf: Awaited<ReturnType<typeof getDocumentProxy>>,
  number: number,
): Promise<string> {
  const images = (await extractImages(pdf, number).catch(() => [])) as RawImage[];
  const largest = images
    .filter((image) => image.width * image.height >= SMALLEST_SCAN_PIXELS)
    .sort((a, b) => b.width * b.height - a.width * a.height)[0];
  if (!largest) return '';
  try {
    return await recognizeImage(rawImageToPnm(largest));
  } catch (error) {
    // An image OCR cannot read leaves the page without text; the rest of the file is read.
    if (error instanceof UnreadableFile) return '';
    throw error;
  }
}
