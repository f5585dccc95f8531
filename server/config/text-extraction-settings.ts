import type { TomlTable } from './toml.ts';
import { tableAt } from './toml.ts';
import { byteSizeSetting, durationSetting, integerSetting } from './values.ts';

/**
 * Bounds of reading the text of one file in the background (steward.toml `[text_extraction]`),
 * so that one large or hostile file costs a known amount of time and memory and never holds up
 * the others.
 */
export interface TextExtractionSettings {
  /** Longest one attempt may take; then its worker thread is stopped (`timeout`). */
  timeoutMs: number;
  /** Pages of a PDF read, from the first (`max_pages`). */
  maxPages: number;
  /** Pages or images read by OCR per file, the slowest part (`max_ocr_pages`). */
  maxOcrPages: number;
  /** Characters of text kept per file; the rest is left out of the search (`max_characters`). */
  maxCharacters: number;
  /**
   * Pixels of the image read by OCR (an image file, or a PDF page's scan), judged from the
   * headers before anything is decoded (`max_image_pixels`): a larger one is not read.
   */
  maxImagePixels: number;
  /**
   * Bytes of XML a Word or Excel file may unpack to, all its parts together, checked before
   * they are parsed (`max_unpacked_size`): a larger file is not read.
   */
  maxUnpackedBytes: number;
}

/** Reads `[text_extraction]` of steward.toml, each setting overridable by its variable. */
export function readTextExtractionSettings(
  env: NodeJS.ProcessEnv,
  stewardToml: TomlTable,
  stewardName: string,
): TextExtractionSettings {
  const table = tableAt(stewardToml, 'text_extraction');
  const where = `${stewardName} [text_extraction]`;
  const source = (key: string, envName: string) => ({
    table,
    where,
    key,
    env: { vars: env, name: envName },
  });
  return {
    timeoutMs: durationSetting(source('timeout', 'TEXT_EXTRACTION_TIMEOUT'), 120_000),
    maxPages: integerSetting(source('max_pages', 'TEXT_EXTRACTION_MAX_PAGES'), 200, 1),
    maxOcrPages: integerSetting(source('max_ocr_pages', 'TEXT_EXTRACTION_MAX_OCR_PAGES'), 20, 0),
    maxCharacters: integerSetting(
      source('max_characters', 'TEXT_EXTRACTION_MAX_CHARACTERS'),
      200_000,
      1000,
    ),
    maxImagePixels: integerSetting(
      source('max_image_pixels', 'TEXT_EXTRACTION_MAX_IMAGE_PIXELS'),
      25_000_000,
      1,
    ),
    maxUnpackedBytes: byteSizeSetting(
      source('max_unpacked_size', 'TEXT_EXTRACTION_MAX_UNPACKED_SIZE'),
      16 * 1024 ** 2,
      1,
    ),
  };
}
