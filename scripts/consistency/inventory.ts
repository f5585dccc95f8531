/**
 * What the consistency check compares, read from either the database or the API: every
 * document row, every stored object of every bucket, and (when the data directory is at hand)
 * every file under `{DATA_DIR}/storage/objects`.
 */

/** The bucket that holds the documents' bytes (docs/data-model.md). */
export const DOCUMENTS_BUCKET = 'documents';

/** A `public.documents` row, as far as the check needs it. */
export interface DocumentEntry {
  id: string;
  organizationId: string;
  name: string;
  /** Object name in the `documents` bucket. */
  filePath: string;
  size: number;
  createdAt: string;
}

/**
 * Whether an object's bytes exist: `present`/`missing` when known (from the data directory or
 * a probe through the API), `unknown` when they could not be checked.
 */
export type FileState = 'present' | 'missing' | 'unknown';

/** A `storage.objects` row. */
export interface ObjectEntry {
  id: string;
  bucketId: string;
  name: string;
  /** Names the object's file on disk; null when the source cannot tell (API without disk). */
  version: string | null;
  /** Bytes according to the object's metadata; null when it records none. */
  size: number | null;
  createdAt: string | null;
  /** Known file state when the source checked it itself; otherwise decided from the disk scan. */
  fileState?: FileState;
}

/** A file under `{DATA_DIR}/storage/objects`. */
export interface DiskFile {
  /** Relative to the storage directory, e.g. `objects/ab/ab12…`. */
  path: string;
  /** The version the file stores, or null for temporary and unexpected files. */
  version: string | null;
  bytes: number;
  modifiedAt: Date;
}

/**
 * An organisation whose running storage total (`private.organization_storage_totals`, which
 * the quota reads) differs from what its objects in the buckets that count take.
 */
export interface StorageTotalDrift {
  organizationId: string;
  /** The running total. */
  recorded: number;
  /** The sum of its objects. */
  counted: number;
}

export interface Inventory {
  /** Where the rows came from, for the report (`PGlite at …`, `PostgreSQL`, `API at …`). */
  source: string;
  documents: DocumentEntry[];
  /**
   * Object names (documents bucket) of the documents' earlier versions (`document_versions`):
   * files in use, though no document points at them now.
   */
  versionFiles: string[];
  objects: ObjectEntry[];
  buckets: string[];
  /**
   * Organisations whose running storage total is wrong; read only from the database (the API
   * does not reach the private schema), so empty through the API.
   */
  storageTotalDrifts: StorageTotalDrift[];
  /** Null when the files on disk could not be examined (see `diskNote`). */
  disk: DiskFile[] | null;
  /** Why the disk was not examined, or where it was. */
  diskNote: string;
}
