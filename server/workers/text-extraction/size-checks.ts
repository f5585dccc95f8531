import { imageSize } from 'image-size';
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef } from 'pdf-lib';
import type { Entry, ZipFile } from 'yauzl';
import { fromBuffer } from 'yauzl';
import { UnreadableFile } from './unreadable-file.ts';

/*
 * What a file will cost to decode, judged from its headers before anything is decoded (issue
 * 22, R2): a 0.7 MB PDF of three 16000 × 16000 scans decodes to gigabytes, and so does a 200 KB
 * Word document of millions of paragraphs. These checks refuse such files in milliseconds with
 * a reason the member can read; the memory cap of the process that reads them
 * (server/workers/process-pool.ts) remains the backstop for what no header tells.
 */

/** The reason every refusal below begins with (as a failed reading's does). */
const COULD_NOT_BE_READ = 'This file could not be read';

const millions = (pixels: number) =>
  `${(pixels / 1e6).toLocaleString('en', { maximumFractionDigits: 1 })} million`;

/** Refuses an image file (PNG, JPEG…) of more than `maxPixels`, from its header. */
export function checkImageSize(bytes: Uint8Array, maxPixels: number): void {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    // A header image-size cannot read: OCR decides whether the image is damaged.
    return;
  }
  const pixels = (size.width ?? 0) * (size.height ?? 0);
  if (pixels > maxPixels) {
    throw new UnreadableFile(
      `${COULD_NOT_BE_READ}: the image has ${millions(pixels)} pixels; at most ${millions(maxPixels)} are read`,
    );
  }
}

/**
 * The declared pixels of the images a PDF page draws (its image XObjects, and those of the
 * forms it draws, inherited resources included), without decoding any, from the file's
 * structure as pdf-lib parses it.
 */
export class PdfImageSizes {
  private constructor(private readonly pdf: PDFDocument | null) {}

  /** Parses the structure (not the content) of a PDF; one that pdf-lib cannot parse is not judged. */
  static async of(bytes: Uint8Array): Promise<PdfImageSizes> {
    const pdf = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    }).catch(() => null);
    return new PdfImageSizes(pdf);
  }

  /** Refuses the file when page `number` (from 1) draws images of more than `maxPixels` in all. */
  checkPage(number: number, maxPixels: number): void {
    if (!this.pdf) return;
    const page = this.pdf.getPages()[number - 1];
    if (!page) return;
    const pixels = this.#pixels(page.node.Resources(), new Set(), 0);
    if (pixels > maxPixels) {
      throw new UnreadableFile(
        `${COULD_NOT_BE_READ}: page ${number} holds images of ${millions(pixels)} pixels; at most ${millions(maxPixels)} are read`,
      );
    }
  }

  #pixels(resources: PDFDict | undefined, seen: Set<PDFRef>, depth: number): number {
    const xObjects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    if (!xObjects || depth > 8) return 0;
    let total = 0;
    for (const [, value] of xObjects.entries()) {
      if (value instanceof PDFRef) {
        if (seen.has(value)) continue;
        seen.add(value);
      }
      const stream = this.pdf!.context.lookup(value);
      if (!(stream instanceof PDFRawStream)) continue;
      const subtype = stream.dict.lookupMaybe(PDFName.of('Subtype'), PDFName);
      if (subtype === PDFName.of('Image')) {
        const dimension = (name: string) =>
          stream.dict.lookupMaybe(PDFName.of(name), PDFNumber)?.asNumber() ?? 0;
        total += dimension('Width') * dimension('Height');
      } else if (subtype === PDFName.of('Form')) {
        const inner = stream.dict.lookupMaybe(PDFName.of('Resources'), PDFDict);
        total += this.#pixels(inner, seen, depth + 1);
      }
    }
    return total;
  }
}

/** Parts of a Word or Excel file that its reader parses: the XML, not the media. */
const isXmlPart = (name: string) => /\.(xml|rels)$/i.test(name);

/**
 * Refuses a Word or Excel file (a ZIP) whose XML parts unpack to more than `maxBytes` in all.
 * First from the sizes the ZIP declares; then each part is inflated and counted without being
 * kept (yauzl stops a part at its declared size), so that a ZIP that lies about its sizes is
 * refused too, before a parser builds anything from it.
 */
export async function checkOfficeSize(
  bytes: Uint8Array,
  limits: { maxBytes: number; damaged: string },
): Promise<void> {
  const { maxBytes } = limits;
  const refuse = () =>
    new UnreadableFile(
      `${COULD_NOT_BE_READ}: its text unpacks to more than ${Math.round(maxBytes / 1024 ** 2)} MiB`,
    );
  let zip: ZipFile;
  try {
    zip = await new Promise<ZipFile>((resolve, reject) =>
      fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (error, opened) =>
        error ? reject(error) : resolve(opened),
      ),
    );
  } catch {
    // Not a ZIP the checks can read: the reader will call it damaged.
    return;
  }
  try {
    const parts: Entry[] = [];
    let declared = 0;
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: Entry) => {
        if (isXmlPart(entry.fileName)) {
          declared += entry.uncompressedSize;
          if (declared > maxBytes) return reject(refuse());
          parts.push(entry);
        }
        zip.readEntry();
      });
      zip.readEntry();
    });
    let unpacked = 0;
    for (const part of parts) {
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        zip.openReadStream(part, (error, opened) => (error ? reject(error) : resolve(opened))),
      );
      for await (const chunk of stream) {
        unpacked += (chunk as Buffer).byteLength;
        if (unpacked > maxBytes) {
          (stream as unknown as { destroy(): void }).destroy();
          throw refuse();
        }
      }
    }
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    // A damaged part, or one larger than it declares.
    throw new UnreadableFile(limits.damaged);
  } finally {
    zip.close();
  }
}
