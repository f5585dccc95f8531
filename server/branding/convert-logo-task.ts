import sharp from 'sharp';

/** The most pixels an uploaded logo may have: a 5 MiB PNG may claim billions. */
export const MAX_LOGO_INPUT_PIXELS = 25_000_000;
/** The logo as stored: it fits this square, as large as the bar could ever show it. */
export const LOGO_SIZE = 512;

export type ConvertLogoResult =
  { ok: true; width: number; height: number } | { ok: false; reason: string };

// One image at a time in this process, and nothing kept between images.
sharp.concurrency(1);
sharp.cache(false);

/**
 * Converts an uploaded PNG, JPEG or WebP image (`source`) into the organisation's logo, a PNG
 * at `target` that fits 512 × 512, turned upright, with no metadata (sharp writes none unless
 * asked: no EXIF, GPS or colour profile of the camera). Runs in a background process
 * (server/file-tasks.ts): decoding an image that claims more pixels than
 * `MAX_LOGO_INPUT_PIXELS` is refused from its header, before any pixel is decoded.
 */
export async function convertLogo({
  source,
  target,
}: {
  source: string;
  target: string;
}): Promise<ConvertLogoResult> {
  try {
    const info = await sharp(source, {
      limitInputPixels: MAX_LOGO_INPUT_PIXELS,
      failOn: 'error',
      animated: false,
    })
      .rotate()
      .resize(LOGO_SIZE, LOGO_SIZE, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toFile(target);
    return { ok: true, width: info.width, height: info.height };
  } catch (error) {
    const message = (error as Error).message;
    if (/pixel limit/i.test(message)) {
      return {
        ok: false,
        reason: 'The image is too large: a logo may have at most 25 million pixels',
      };
    }
    if (/unsupported image format|Input file/i.test(message)) {
      return { ok: false, reason: 'The file is not a PNG, JPEG or WebP image' };
    }
    return { ok: false, reason: 'The image could not be read' };
  }
}
