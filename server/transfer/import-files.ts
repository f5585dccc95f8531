import { createHash } from 'node:crypto';
import type { FileStore } from '../storage/file-store.ts';

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

/**
 * Removes the files an unfinished attempt of an import wrote. They are written one after the
 * other from index 0 and removed last first, so they always form a run from 0: the first index
 * with neither a file nor a partial file ends it. Returns how many were there.
 */
export async function removeImportFiles(store: FileStore, importId: string): Promise<number> {
  let index = 0;
  while (await store.discard(importFileVersion(importId, index))) index++;
  return index;
}
