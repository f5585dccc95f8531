import type { TomlTable } from './toml.ts';
import { tableAt } from './toml.ts';
import { byteSizeSetting, durationSetting, integerSetting } from './values.ts';

/**
 * Export and import of a whole organisation (steward.toml `[transfer]`): how long an export
 * stays downloadable, and the bounds an import ZIP must keep, so that a hostile file (a ZIP
 * bomb, a million entries) is refused before anything is unpacked.
 */
export interface TransferSettings {
  /** How long a finished export can be downloaded before it is removed (`export_retention`). */
  exportRetentionMs: number;
  /** Most entries an import ZIP may hold (`import_max_entries`). */
  importMaxEntries: number;
  /** Most bytes an import ZIP may unpack to, all entries together (`import_max_unpacked_size`). */
  importMaxUnpackedBytes: number;
  /**
   * Highest ratio of unpacked to packed size of one entry (`import_max_ratio`); real documents
   * stay far below it, ZIP bombs far above.
   */
  importMaxRatio: number;
  /** Most bytes of an import's manifest.json, which is read whole (`import_max_manifest_size`). */
  importMaxManifestBytes: number;
  /** Most documents an import's manifest.json may list (`import_max_documents`). */
  importMaxDocuments: number;
}

/** Reads `[transfer]` of steward.toml, each setting overridable by its variable. */
export function readTransferSettings(
  env: NodeJS.ProcessEnv,
  stewardToml: TomlTable,
  stewardName: string,
): TransferSettings {
  const table = tableAt(stewardToml, 'transfer');
  const where = `${stewardName} [transfer]`;
  const source = (key: string, envName: string) => ({
    table,
    where,
    key,
    env: { vars: env, name: envName },
  });
  const exportRetentionMs = durationSetting(
    source('export_retention', 'EXPORT_RETENTION'),
    7 * 86_400_000,
  );
  if (exportRetentionMs < 60_000) {
    throw new Error(`${where} export_retention must be at least "1m"`);
  }
  return {
    exportRetentionMs,
    importMaxEntries: integerSetting(
      source('import_max_entries', 'IMPORT_MAX_ENTRIES'),
      100_000,
      1,
    ),
    importMaxUnpackedBytes: byteSizeSetting(
      source('import_max_unpacked_size', 'IMPORT_MAX_UNPACKED_SIZE'),
      20 * 1024 ** 3,
    ),
    importMaxRatio: integerSetting(source('import_max_ratio', 'IMPORT_MAX_RATIO'), 200, 2),
    importMaxManifestBytes: byteSizeSetting(
      source('import_max_manifest_size', 'IMPORT_MAX_MANIFEST_SIZE'),
      64 * 1024 ** 2,
    ),
    importMaxDocuments: integerSetting(
      source('import_max_documents', 'IMPORT_MAX_DOCUMENTS'),
      5_000,
      1,
    ),
  };
}
