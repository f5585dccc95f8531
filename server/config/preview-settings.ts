import type { TomlTable } from './toml.ts';
import { tableAt } from './toml.ts';
import { byteSizeSetting, durationSetting, integerSetting } from './values.ts';

/**
 * Word and Excel previews Steward renders itself (steward.toml `[previews]`): the bounds of one
 * rendering, besides `[text_extraction] max_unpacked_size`, which is checked before decoding, and
 * the room the rendered previews may take on disk.
 */
export interface PreviewSettings {
  /** Longest one rendering may take; then its process is ended (`timeout`). */
  timeoutMs: number;
  /** Rows of each sheet shown (`max_rows`). */
  maxRows: number;
  /** Columns of each sheet shown (`max_columns`). */
  maxColumns: number;
  /** Bytes of a Word document's pictures shown, all together (`max_image_size`). */
  maxImageBytes: number;
  /** Bytes the rendered previews of the whole installation keep on disk, least used first out (`cache_size`). */
  cacheBytes: number;
}

/** Reads `[previews]` of steward.toml, each setting overridable by its variable. */
export function readPreviewSettings(
  env: NodeJS.ProcessEnv,
  stewardToml: TomlTable,
  stewardName: string,
): PreviewSettings {
  const table = tableAt(stewardToml, 'previews');
  const where = `${stewardName} [previews]`;
  const source = (key: string, envName: string) => ({
    table,
    where,
    key,
    env: { vars: env, name: envName },
  });
  return {
    timeoutMs: durationSetting(source('timeout', 'PREVIEW_TIMEOUT'), 60_000),
    maxRows: integerSetting(source('max_rows', 'PREVIEW_MAX_ROWS'), 1000, 1),
    maxColumns: integerSetting(source('max_columns', 'PREVIEW_MAX_COLUMNS'), 50, 1),
    maxImageBytes: byteSizeSetting(
      source('max_image_size', 'PREVIEW_MAX_IMAGE_SIZE'),
      5 * 1024 ** 2,
      0,
    ),
    cacheBytes: byteSizeSetting(source('cache_size', 'PREVIEW_CACHE_SIZE'), 256 * 1024 ** 2, 0),
  };
}
