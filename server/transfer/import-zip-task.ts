import { buffer } from 'node:stream/consumers';
import type { Entry, ZipFile } from 'yauzl';
import { openPromise } from 'yauzl';
import { StorageError } from '../storage/errors.ts';
import type { StoredFile } from '../storage/file-store.ts';
import { StorageObjects } from '../storage/hosted-storage.ts';
import { openFileStore } from '../storage/open-file-store.ts';
import { s3Client } from '../storage/s3-file-store.ts';
import type { ObjectStorageSettings } from '../config/object-storage-settings.ts';
import { importFileVersion, importFiles, type ImportFiles } from './import-files.ts';
import { importDocuments, type ImportAccess, type ImportDocument } from './manifest.ts';

/** The bounds an import ZIP must keep (steward.toml `[transfer]`). */
export interface ImportLimits {
  maxEntries: number;
  /** Most bytes unpacked: declared by all entries together, and written for all documents. */
  maxUnpackedBytes: number;
  maxRatio: number;
  maxManifestBytes: number;
  maxDocuments: number;
}

/** What the organisation still has room for, and the words of the refusal past it. */
export interface ImportRoom {
  bytes: number;
  refusal: string;
}

export interface ImportZipTask {
  /** The import (its id names the files written, see import-files.ts). */
  importId: string;
  /** The uploaded ZIP on disk. */
  zip: string;
  /** The file store that receives the documents' files: the data directory and its settings. */
  dataDir: string;
  objects: ObjectStorageSettings;
  /**
   * On a hosted project (`objects` is then its Storage's S3 protocol): the files are written as
   * Storage keeps them, in the documents bucket, named with this prefix (import-files.ts).
   */
  hostedPrefix?: string;
  limits: ImportLimits;
  room: ImportRoom;
}

/** A document unpacked into the file store, with its stored file. */
export interface UnpackedDocument extends ImportDocument {
  stored: StoredFile;
}

export type ImportZipResult =
  { documents: UnpackedDocument[]; access: ImportAccess } | { refused: string };

/** Entries smaller than this may compress as well as they like (a page of blank text). */
const RATIO_FREE_BYTES = 1024 ** 2;

class Refusal extends Error {}

/**
 * Reads an import ZIP in a worker thread and, only when all of it is acceptable, unpacks its
 * documents' files into the file store. Checked first, from the central directory, before a
 * byte is unpacked: that it is a ZIP at all, its entry count, every entry's name (no absolute
 * path, no `..`, no backslash), the declared unpacked sizes and each entry's compression ratio
 * (ZIP bombs), and a manifest.json of a Steward export, within its size and document count,
 * whose files are all in the ZIP. While unpacking, every file written counts (an entry that
 * several documents name, once for each) against the unpack limit and the organisation's room,
 * checked before it is written, and yauzl and the store hold each entry to its declared size:
 * the first excess stops the import. A refusal returns its reason and leaves nothing behind;
 * files stored before a failure are removed, last first (see import-files.ts).
 */
export async function readImportZip(task: ImportZipTask): Promise<ImportZipResult> {
  let zip: ZipFile;
  try {
    zip = await openPromise(task.zip, {
      lazyEntries: true,
      strictFileNames: true,
      autoClose: false,
    });
  } catch {
    return { refused: 'The file is not a valid ZIP archive' };
  }
  const files: ImportFiles = importFiles(
    task.hostedPrefix !== undefined && task.objects.backend === 's3'
      ? { objects: new StorageObjects(s3Client(task.objects)), prefix: task.hostedPrefix }
      : { store: openFileStore(task.dataDir, task.objects) },
  );
  const written: string[] = [];
  try {
    const entries = await checkedEntries(zip, task.limits);
    const manifestEntry = entries.get('manifest.json');
    if (!manifestEntry) {
      throw new Refusal(
        'This ZIP is not a Steward export (its manifest.json is missing or invalid)',
      );
    }
    if (manifestEntry.uncompressedSize > task.limits.maxManifestBytes) {
      throw new Refusal('The manifest.json of this ZIP is too large');
    }
    let manifest: unknown;
    try {
      manifest = JSON.parse(
        (await buffer(await zip.openReadStreamPromise(manifestEntry))).toString('utf8'),
      );
    } catch {
      throw new Refusal(
        'This ZIP is not a Steward export (its manifest.json is missing or invalid)',
      );
    }
    const checked = importDocuments(
      manifest,
      (name) => entries.has(name),
      task.limits.maxDocuments,
    );
    if ('refused' in checked) return checked;

    const documents: UnpackedDocument[] = [];
    let unpacked = 0;
    for (const document of checked.documents) {
      const entry = entries.get(document.file)!;
      unpacked += entry.uncompressedSize;
      if (unpacked > task.limits.maxUnpackedBytes) {
        throw new Refusal('The ZIP unpacks to more than the import limit allows');
      }
      if (unpacked > task.room.bytes) throw new Refusal(task.room.refusal);
      const stream = await zip.openReadStreamPromise(entry);
      // The store stops reading at the declared size; yauzl's own size check may then report
      // on the abandoned stream, which must not become an uncaught error of the thread.
      stream.on('error', () => {});
      const version = importFileVersion(task.importId, written.length);
      written.push(version);
      const stored = await files
        .write(stream, entry.uncompressedSize, version, document.content_type)
        .catch((error: unknown) => {
          // More bytes than the entry declared (the store stops at that size, or yauzl does).
          if (error instanceof StorageError || /too (many|few) bytes/.test(String(error))) {
            throw new Refusal(
              `The ZIP archive is damaged (${entry.fileName} is not the size it declares)`,
            );
          }
          throw error;
        });
      documents.push({ ...document, stored });
    }
    return { documents, access: checked.access };
  } catch (error) {
    for (const version of written.reverse()) await files.discard(version);
    if (error instanceof Refusal) return { refused: error.message };
    // zlib cannot inflate an entry's data: the archive is damaged, not the server.
    if (error instanceof Error && (error as { code?: unknown }).code === 'Z_DATA_ERROR') {
      return { refused: `The ZIP archive is damaged (${error.message})` };
    }
    throw error;
  } finally {
    zip.close();
  }
}

/** Every entry by name, after the checks that need no unpacking; throws a `Refusal`. */
async function checkedEntries(zip: ZipFile, limits: ImportLimits): Promise<Map<string, Entry>> {
  if (zip.entryCount > limits.maxEntries) {
    throw new Refusal(`The ZIP holds more than ${limits.maxEntries} files`);
  }
  const entries = new Map<string, Entry>();
  let unpacked = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('error', (error: Error) => {
      // yauzl checks every name itself (decodeStrings, strictFileNames) and stops at the first
      // unsafe one: an absolute path, a `..` segment, a backslash.
      if (
        /absolute path|invalid relative path|invalid characters in fileName/.test(error.message)
      ) {
        reject(new Refusal(`The ZIP contains an unsafe file name (${error.message})`));
      } else {
        reject(new Refusal(`The ZIP archive is damaged (${error.message})`));
      }
    });
    zip.on('end', () => resolve());
    zip.on('entry', (entry: Entry) => {
      try {
        unpacked += entry.uncompressedSize;
        if (unpacked > limits.maxUnpackedBytes) {
          throw new Refusal('The ZIP unpacks to more than the import limit allows');
        }
        checkEntry(entry, limits);
        if (entries.has(entry.fileName)) {
          throw new Refusal(`The ZIP contains ${entry.fileName} twice`);
        }
        if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
        zip.readEntry();
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    zip.readEntry();
  });
  return entries;
}

/** One entry's name, encryption, compression method and ratio. */
function checkEntry(entry: Entry, limits: ImportLimits): void {
  const name = entry.fileName;
  // yauzl has refused these already; checked again here so that the rule does not rest on one
  // library's defaults.
  if (
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.includes('\\') ||
    name.split('/').includes('..') ||
    // eslint-disable-next-line no-control-regex -- control characters have no place in a name
    /[\u0000-\u001f]/.test(name)
  ) {
    throw new Refusal(`The ZIP contains an unsafe file name (${name})`);
  }
  if (entry.isEncrypted()) throw new Refusal(`The ZIP contains an encrypted file (${name})`);
  if (!entry.canDecodeFileData()) {
    throw new Refusal(`The ZIP uses a compression method Steward cannot read (${name})`);
  }
  if (
    entry.uncompressedSize > RATIO_FREE_BYTES &&
    entry.uncompressedSize / Math.max(entry.compressedSize, 1) > limits.maxRatio
  ) {
    throw new Refusal(`The ZIP looks like a ZIP bomb (${name} is compressed too well)`);
  }
}
