import { createHash } from 'node:crypto';
import type { FileStore, StoredFile } from '../storage/file-store.ts';
import type { StorageObjects } from '../storage/hosted-storage.ts';

/**
 * The stored version (file name) of the `index`-th file an import unpacks. It is derived from
 * the import's id rather than drawn at random, so that the job can find every file an attempt
 * wrote, also when the thread writing them was stopped (its time limit, a memory cap) before it
 * could clean up after itself.
 */
export function importFileVersion(importId: string, index: number): string {
  const hex = createHash('sha256').update(`steward import ${importId} ${index}`).digest('hex');
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20, 32),
  ].join('-');
}

/** Where an import writes its documents' files, each named by its version (above). */
export interface ImportFiles {
  /** Streams `chunks` into the file of `version`, at most `maxBytes` of them (FileStore.write). */
  write(
    chunks: AsyncIterable<Uint8Array>,
    maxBytes: number,
    version: string,
    contentType: string,
  ): Promise<StoredFile>;
  /** Removes the file of `version` and an unfinished write of it; whether either was there. */
  discard(version: string): Promise<boolean>;
}

/**
 * How the names of the files a hosted project's import writes start, inside the organisation's
 * folder of the documents bucket (a document's file is directly in that folder). Hosted
 * Storage keeps an object under its name (with a version of its own), so each file is named by
 * this and its version; the storage read policy withholds such files from every reader until
 * the import is done (`private.unfinished_import_file`, 2026112900200).
 */
export const hostedImportPrefix = (importId: string) => `import-${importId}-`;

/** The object name of the file of `version` after `prefix` (a hosted project's import). */
export const hostedImportObjectName = (prefix: string, version: string) => `${prefix}${version}`;

/**
 * The files of an import: in Steward's file store by version (embedded), or on a hosted project
 * as Storage keeps them, the objects `{prefix}{version}` of its documents bucket, through its S3
 * protocol (which records their rows; storage/hosted-storage.ts).
 */
export function importFiles(
  target: { store: FileStore } | { objects: StorageObjects; prefix: string },
): ImportFiles {
  if ('store' in target) {
    const { store } = target;
    return {
      write: (chunks, maxBytes, version) => store.write(chunks, maxBytes, version),
      discard: (version) => store.discard(version),
    };
  }
  const { prefix, objects } = target;
  return {
    write: async (chunks, maxBytes, version, contentType) => ({
      version,
      ...(await objects.write(
        'documents',
        hostedImportObjectName(prefix, version),
        chunks,
        maxBytes,
        contentType,
      )),
    }),
    discard: (version) => objects.discard('documents', hostedImportObjectName(prefix, version)),
  };
}

/**
 * Removes the files an unfinished attempt of an import wrote. They are written one after the
 * other from index 0 and removed last first, so they always form a run from 0: the first index
 * with neither a file nor a partial file ends it. Returns how many were there.
 */
export async function removeImportFiles(
  files: Pick<ImportFiles, 'discard'>,
  importId: string,
): Promise<number> {
  let index = 0;
  while (await files.discard(importFileVersion(importId, index))) index++;
  return index;
}
