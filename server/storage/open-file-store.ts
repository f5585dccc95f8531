import type { ObjectStorageSettings } from '../config/object-storage-settings.ts';
import { DiskFileStore } from './disk-file-store.ts';
import type { FileStore } from './file-store.ts';
import { DiskResumableStore, type ResumableStore } from './resumable-store.ts';
import { S3FileStore } from './s3-file-store.ts';
import { S3ResumableStore } from './s3-resumable-store.ts';

/**
 * The file store the settings choose: the data directory's disk, or an S3-compatible bucket.
 * The only place that tells them apart; everything else uses the `FileStore` interface.
 */
export function openFileStore(dataDir: string, settings: ObjectStorageSettings): FileStore {
  return settings.backend === 's3'
    ? new S3FileStore(dataDir, settings)
    : new DiskFileStore(dataDir);
}

/**
 * Where resumable uploads wait until complete, beside the stored files: in the bucket when
 * they are in one (so that any server process can continue any upload), else on the disk.
 */
export function openResumableStore(
  dataDir: string,
  settings: ObjectStorageSettings,
): ResumableStore {
  return settings.backend === 's3'
    ? new S3ResumableStore(settings)
    : new DiskResumableStore(dataDir);
}
