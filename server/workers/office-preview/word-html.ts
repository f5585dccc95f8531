import mammoth from 'mammoth';
import { UnreadableFile } from '../text-extraction/unreadable-file.ts';

/** Picture types a browser shows without script; others (EMF, WMF, SVG…) are left out. */
const SHOWN_PICTURES = /^image\/(png|jpeg|gif|webp|bmp)$/i;

/**
 * A Word document (.docx) as HTML (mammoth): headings, paragraphs, lists, tables, emphasis and
 * footnotes; pictures as `data:` URLs while they fit in `maxImageBytes` all together, the rest
 * by their description. Not yet sanitised.
 */
export async function wordToHtml(bytes: Uint8Array, maxImageBytes: number): Promise<string> {
  let imageBytes = 0;
  const convertImage = mammoth.images.imgElement(async (image) => {
    // mammoth adds the picture's description (alt) itself; a picture left out keeps only that.
    if (!SHOWN_PICTURES.test(image.contentType)) return { src: '' };
    const data = await image.read();
    imageBytes += data.byteLength;
    if (imageBytes > maxImageBytes) return { src: '' };
    return { src: `data:${image.contentType};base64,${data.toString('base64')}` };
  });
  try {
    const { value } = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes) },
      { convertImage, ignoreEmptyParagraphs: true },
    );
    return value;
  } catch {
    throw new UnreadableFile('The Word document is damaged and cannot be read');
  }
}
