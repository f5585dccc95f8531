import type { Readable } from 'node:stream';

/** What was written: the version that names the file, its size, its ETag and its SHA-256. */
export interface StoredFile {
  version: string;
  size: number;
  /** Quoted MD5 of the bytes, as S3 (and so the storage server) reports it. */
  eTag: string;
  /** SHA-256 of the bytes in lower-case hex (Steward's own; finds duplicate documents). */
  sha256: string;
}

/** A stored file opened for reading: its size, then its bytes, whole or a range of them. */
export interface OpenedFile {
  size: number;
  /** The bytes from `start` to `end` inclusive (all of them without a range). Call once. */
  stream(range?: { start: number; end: number }): Promise<Readable>;
  /** Lets go of the file when its bytes are not wanted after all. */
  close(): Promise<void>;
}

/** One entry of the store as the consistency check sees it. */
export interface StoredEntry {
  /** Where it is, relative to the store (`objects/ab/ab12…`); names it for `removeEntry`. */
  path: string;
  /** The version it stores; null for anything else (an unfinished write, a stray file). */
  version: string | null;
  bytes: number;
  modifiedAt: Date;
}

// Every file is named by a version the server generated, never by anything a client sent, so
// no object name, bucket name or database value can make a path or key leave the store.
const VERSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `value` is a version this store could have made. */
export const isStoredVersion = (value: unknown): value is string =>
  typeof value === 'string' && VERSION.test(value);

/** Where a version lives inside a store: `objects/{first two hex digits}/{version}`. */
export function versionPath(version: string): string {
  if (!isStoredVersion(version)) throw new Error(`not a storage version: ${version}`);
  return `objects/${version.slice(0, 2)}/${version}`;
}

/**
 * The bytes of stored objects: on the local disk (disk-file-store.ts, the default) or in an
 * S3-compatible bucket (s3-file-store.ts), chosen at start-up (open-file-store.ts). Both keep
 * the same guarantees, on which the rows of `storage.objects` rely:
 *
 * - A version becomes visible only whole: a write goes to a temporary file that is renamed, or
 *   to one S3 PUT or a multipart upload completed only when every part is there.
 * - A version is written before the row that points at it is committed, and removed only after
 *   that row is gone. A crash can therefore leave only versions no row points at, which `sweep`
 *   and the consistency check remove; never a row without its bytes.
 */
export interface FileStore {
  /** Where the files are, for messages and reports (a directory or `s3://bucket/prefix`). */
  readonly location: string;

  /**
   * Streams `chunks` into a new version. Stops reading and throws `EntityTooLarge` as soon as
   * more than `maxBytes` arrive; on any failure nothing of the version is left. `version`
   * names the file when the writer must be able to find it again after being stopped (an
   * import's files); it must not exist yet.
   */
  write(chunks: AsyncIterable<Uint8Array>, maxBytes: number, version?: string): Promise<StoredFile>;

  /**
   * Makes the local file `file` (a `scratchFile()` of this store) the bytes of `version`, and
   * takes it away from its path.
   */
  keep(file: string, version: string): Promise<void>;

  /** A new version with the same bytes as `version` (for copy). */
  copy(version: string): Promise<string>;

  /** Opens `version` for reading; null when it does not exist. */
  open(version: string): Promise<OpenedFile | null>;

  /** The size of `version` in bytes; null when it does not exist. */
  sizeOf(version: string): Promise<number | null>;

  /**
   * Calls `use` with the path of a local file holding the bytes of each of `versions` (in
   * their order), for work that reads files by path (text extraction, ZIPs, attachments).
   * Rejects with an `ENOENT` error when one is missing. The paths are valid until `use` ends.
   */
  withLocalFiles<T>(versions: string[], use: (paths: string[]) => Promise<T>): Promise<T>;

  /** A path on the local disk, under this store, for a file that `keep` will take. */
  scratchFile(name: string): string;

  /** Deletes `version`; one already gone is fine. Waits while removals are held. */
  remove(version: string): Promise<void>;

  /**
   * Removes `version` and an unfinished write of it, for a writer that may have been stopped
   * mid-way. Returns whether either was there.
   */
  discard(version: string): Promise<boolean>;

  /**
   * Keeps every version of this store until the returned function is called: removals asked
   * for meanwhile (by any store of this process on the same place) wait and happen then. A
   * backup holds removals from before it reads the database until it has its copies of the
   * files the database referred to (backup/snapshot.ts).
   */
  holdRemovals(): () => Promise<void>;

  /**
   * Copies `version` to the local path `destination` (a hard link where it can). Returns
   * false when the version does not exist.
   */
  saveCopy(version: string, destination: string): Promise<boolean>;

  /**
   * Deletes every version no row points at, and what unfinished writes left. `referenced`
   * answers which of the given versions some row still holds. Must not race a write of this
   * process (it runs at start-up, before requests are served).
   */
  sweep(referenced: (versions: string[]) => Promise<Set<string>>): Promise<number>;

  /** Everything in the store, for the consistency check. */
  inventory(): Promise<StoredEntry[]>;

  /** Deletes an entry `inventory` listed. */
  removeEntry(entryPath: string): Promise<void>;
}

/** Removals held per store location (see `FileStore.holdRemovals`), with what waits. */
const removalHolds = new Map<string, { holders: number; pending: Set<string> }>();

/**
 * Holds of removals, shared by every store of this process on the same location: `defer`
 * answers whether a removal must wait; `hold` starts a hold whose release runs `remove` for
 * each removal that waited.
 */
export const heldRemovals = {
  defer(location: string, version: string): boolean {
    const hold = removalHolds.get(location);
    if (!hold) return false;
    hold.pending.add(version);
    return true;
  },
  hold(location: string, remove: (version: string) => Promise<void>): () => Promise<void> {
    let hold = removalHolds.get(location);
    if (!hold) {
      hold = { holders: 0, pending: new Set() };
      removalHolds.set(location, hold);
    }
    hold.holders += 1;
    const held = hold;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      held.holders -= 1;
      if (held.holders > 0) return;
      removalHolds.delete(location);
      for (const version of held.pending) {
        await remove(version).catch((error: unknown) => {
          console.error(`storage: could not delete file of version ${version}:`, error);
        });
      }
    };
  },
};

/** An error like Node's for a missing file, which callers of `withLocalFiles` recognise. */
export function missingFileError(version: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`stored file ${version} does not exist`);
  error.code = 'ENOENT';
  return error;
}
