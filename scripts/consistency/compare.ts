import type {
  DiskFile,
  DocumentEntry,
  Inventory,
  ObjectEntry,
  StorageTotalDrift,
} from './inventory.ts';
import { DOCUMENTS_BUCKET } from './inventory.ts';

/** A document whose bytes cannot be served. */
export interface DocumentWithoutFile {
  document: DocumentEntry;
  /** `no-object`: no storage row at `file_path`; `no-file`: the row's file is gone from disk. */
  reason: 'no-object' | 'no-file';
}

/** A document whose recorded size is not the size of its stored file. */
export interface SizeMismatch {
  document: DocumentEntry;
  objectSize: number;
}

/** An item that may be garbage, with its age so that fresh ones are not mistaken for it. */
export interface Aged<T> {
  item: T;
  ageSeconds: number | null;
}

export interface Findings {
  /** (1) rows of `documents` whose object is missing from `storage.objects` or from disk. */
  documentsWithoutFile: DocumentWithoutFile[];
  /** (1b) rows of `documents` whose `size` differs from their object's size. */
  sizeMismatches: SizeMismatch[];
  /** (2) objects of the documents bucket that no document points at, older than the grace. */
  orphanObjects: Aged<ObjectEntry>[];
  /** (3a) storage rows (any bucket) whose file is missing on disk. */
  objectsWithoutFile: ObjectEntry[];
  /** (3b) files on disk that no storage row points at, older than the grace. */
  orphanFiles: Aged<DiskFile>[];
  /** (4) organisations whose running storage total (the quota's) differs from their objects. */
  storageTotalDrifts: StorageTotalDrift[];
  /** Orphans younger than the grace period: possibly an upload still in progress; not counted. */
  recent: { objects: Aged<ObjectEntry>[]; files: Aged<DiskFile>[] };
  /** Objects whose file state could not be determined (a probe failed). */
  unknownFileState: ObjectEntry[];
}

export interface CompareOptions {
  /** Orphans younger than this are reported as recent, not as inconsistencies. */
  graceSeconds: number;
  now?: Date;
}

const keyOf = (bucketId: string, name: string) => `${bucketId}\u0000${name}`;

function ageSeconds(timestamp: string | Date | null, now: Date): number | null {
  if (timestamp === null) return null;
  const time = new Date(timestamp).getTime();
  return Number.isNaN(time) ? null : Math.max(0, (now.getTime() - time) / 1000);
}

/**
 * Compares rows, objects and files. Pure: everything it needs is in `inventory`. An object's
 * file counts as missing only when the disk was examined (or the source probed it).
 */
export function compareInventory(inventory: Inventory, options: CompareOptions): Findings {
  const now = options.now ?? new Date();
  const onDisk = inventory.disk
    ? new Set(inventory.disk.flatMap((file) => (file.version ? [file.version] : [])))
    : null;
  const fileState = (object: ObjectEntry) => {
    if (onDisk)
      return object.version !== null && onDisk.has(object.version) ? 'present' : 'missing';
    return object.fileState ?? 'unknown';
  };
  const isRecent = (age: number | null) => age !== null && age < options.graceSeconds;

  const objects = new Map(
    inventory.objects.map((object) => [keyOf(object.bucketId, object.name), object]),
  );
  const findings: Findings = {
    documentsWithoutFile: [],
    sizeMismatches: [],
    orphanObjects: [],
    objectsWithoutFile: [],
    orphanFiles: [],
    storageTotalDrifts: inventory.storageTotalDrifts,
    recent: { objects: [], files: [] },
    unknownFileState: [],
  };

  for (const document of inventory.documents) {
    const object = objects.get(keyOf(DOCUMENTS_BUCKET, document.filePath));
    if (!object) {
      findings.documentsWithoutFile.push({ document, reason: 'no-object' });
    } else if (fileState(object) === 'missing') {
      findings.documentsWithoutFile.push({ document, reason: 'no-file' });
    } else if (object.size !== null && object.size !== document.size) {
      findings.sizeMismatches.push({ document, objectSize: object.size });
    }
  }

  const referenced = new Set([
    ...inventory.documents.map((document) => document.filePath),
    ...inventory.versionFiles,
  ]);
  for (const object of inventory.objects) {
    if (object.bucketId === DOCUMENTS_BUCKET && !referenced.has(object.name)) {
      const aged = { item: object, ageSeconds: ageSeconds(object.createdAt, now) };
      (isRecent(aged.ageSeconds) ? findings.recent.objects : findings.orphanObjects).push(aged);
    }
    const state = fileState(object);
    if (state === 'missing') findings.objectsWithoutFile.push(object);
    if (object.fileState === 'unknown') findings.unknownFileState.push(object);
  }

  if (inventory.disk) {
    const versions = new Set(inventory.objects.map((object) => object.version));
    for (const file of inventory.disk) {
      if (file.version !== null && versions.has(file.version)) continue;
      const aged = { item: file, ageSeconds: ageSeconds(file.modifiedAt, now) };
      (isRecent(aged.ageSeconds) ? findings.recent.files : findings.orphanFiles).push(aged);
    }
  }
  return findings;
}

/** Inconsistencies counted by the exit code (recent orphans are not). */
export function problemCount(findings: Findings): number {
  return (
    findings.documentsWithoutFile.length +
    findings.sizeMismatches.length +
    findings.orphanObjects.length +
    findings.objectsWithoutFile.length +
    findings.orphanFiles.length +
    findings.storageTotalDrifts.length
  );
}
