import type { ScopedDatabase } from '../db/database.ts';
import type { FileStore } from './file-store.ts';

/** What one request's (or the server's own) storage work uses. */
export interface StorageServices {
  /**
   * The database in the scope of the request (or the server's own work): bypasses RLS; used
   * only where the storage server does too.
   */
  db: ScopedDatabase;
  store: FileStore;
  /** Key of signed-URL tokens (see `urlSigningKey`). */
  urlSigningKey: string;
  /** Largest object in bytes, whatever the bucket allows (`[storage] file_size_limit`). */
  fileSizeLimit: number;
  /** Longest lifetime of a signed URL in seconds (steward.toml `[storage] max_signed_url_expiry`). */
  maxSignedUrlExpirySeconds: number;
}

/** What the storage routes are built from: the services without a database, one per server. */
export type SharedStorage = Omit<StorageServices, 'db'>;

/** The storage services of work done through `db` (a request's handle, or the server's). */
export function storageWith(shared: SharedStorage, db: ScopedDatabase): StorageServices {
  return { ...shared, db };
}
