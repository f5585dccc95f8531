import { createRequire } from 'node:module';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { UnreadableFile } from './unreadable-file.ts';

// The English model ships in an npm package: nothing is downloaded when the server runs.
const { langPath } = createRequire(import.meta.url)('@tesseract.js-data/eng') as {
  langPath: string;
};

let worker: Promise<Worker> | null = null;

/**
 * This thread's tesseract worker, started on first use (about a second) and kept, so that each
 * later image costs only its recognition.
 */
function ocrWorker(): Promise<Worker> {
  worker ??= createWorker('eng', OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    // Nothing is written beside the process (the default caches the model in the working
    // directory).
    cacheMethod: 'none',
    // Without a handler, tesseract.js also throws a failed job's error from its message
    // listener, which would end the whole pool thread; the job's promise rejects either way.
    errorHandler: () => undefined,
  }).catch((error: unknown) => {
    worker = null;
    throw error;
  });
  return worker;
}

/**
 * The words tesseract reads in an image file (PNG, JPEG, GIF, BMP, TIFF, WebP, PNM). An image
 * it cannot decode is `UnreadableFile`; a worker that cannot start is a failure to retry.
 */
export async function recognizeImage(image: Uint8Array): Promise<string> {
  const ocr = await ocrWorker();
  try {
    const { data } = await ocr.recognize(Buffer.from(image));
    return data.text;
  } catch {
    throw new UnreadableFile('The image is damaged or of a kind that cannot be read');
  }
}

/** Pixels as a PDF holds them after decoding: 1 (grey), 3 (RGB) or 4 (RGBA) channels a pixel. */
export interface RawImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}

/**
 * Raw pixels as a binary grey PGM file, the simplest format tesseract reads: a one-line header
 * and a byte a pixel. Grey because OCR reads grey anyway, and a third of the bytes of colour
 * (then a quarter of the pixels tesseract holds) lets a full-page scan be read within the
 * memory cap of its process. Alpha is dropped.
 */
export function rawImageToPnm({ data, width, height, channels }: RawImage): Uint8Array {
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'ascii');
  const pixels = width * height;
  const pgm = Buffer.allocUnsafe(header.byteLength + pixels);
  header.copy(pgm, 0);
  if (channels === 1) {
    pgm.set(data.subarray(0, pixels), header.byteLength);
    return pgm;
  }
  for (let pixel = 0, at = 0; pixel < pixels; pixel++, at += channels) {
    // ITU-R BT.601 luma, in integers.
    pgm[header.byteLength + pixel] =
      (data[at]! * 299 + data[at + 1]! * 587 + data[at + 2]! * 114 + 500) / 1000;
  }
  return pgm;
}
