import type { Database } from '../db/database.ts';
import type { FileStore } from './file-store.ts';

/** What the storage routes are built from. */
export interface StorageServices {
  /** The server's own connection: bypasses RLS; used only where the storage server does too. */
  db: Database;
  store: FileStore;
  /** Key of signed-URL tokens (see `urlSigningKey`). */
  urlSigningKey: string;
  /** Largest object in bytes, whatever the bucket allows (`[storage] file_size_limit`). */
  fileSizeLimit: number;
  /** Longest lifetime of a signed URL in seconds (steward.toml `[storage] max_signed_url_expiry`). */
  maxSignedUrlExpirySeconds: number;
}
