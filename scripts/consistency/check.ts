import type { Database } from '../../server/db/database.ts';
import type { ObjectStorageSettings } from '../../server/config/object-storage-settings.ts';
import type { FileStore } from '../../server/storage/file-store.ts';
import { openFileStore } from '../../server/storage/open-file-store.ts';
import {
  listAllDocuments,
  listVersionFiles,
  listBucketIds,
  listBucketObjects,
  objectVersions,
  probeFiles,
  serviceClient,
} from './api-source.ts';
import type { Findings } from './compare.ts';
import { compareInventory, problemCount } from './compare.ts';
import {
  deleteOrphanObjectRows,
  readDatabaseRows,
  recountStorageTotals,
} from './database-source.ts';
import type { Inventory, ObjectEntry } from './inventory.ts';
import { DOCUMENTS_BUCKET } from './inventory.ts';

/** What to check: a database opened directly, or a running server through its API. */
export type CheckTarget =
  | {
      kind: 'database';
      db: Database;
      /** For the report: `PGlite at …` or `PostgreSQL at …`. */
      label: string;
      /** The data directory whose `storage/` holds the files; null to skip the disk. */
      dataDir: string | null;
      /** Where the files are (default: the data directory's disk). */
      objects?: ObjectStorageSettings;
      /** True when no server can be changing the store meanwhile (a stopped PGlite). */
      quiescent: boolean;
    }
  | {
      kind: 'api';
      url: string;
      serviceRoleKey: string;
      /** This server's data directory (checked by the caller), or null to probe files via HTTP. */
      dataDir: string | null;
      /** Where the files are (default: the data directory's disk). */
      objects?: ObjectStorageSettings;
      /** Why `dataDir` is null, for the report. */
      noDiskReason?: string;
    };

export interface CheckOptions {
  /** Orphans younger than this many seconds are reported as recent and not counted. */
  graceSeconds: number;
}

export interface ConsistencyReport {
  source: string;
  diskNote: string;
  counts: { documents: number; objects: number; buckets: string[]; files: number | null };
  graceSeconds: number;
  findings: Findings;
  /** Inconsistencies counted by the exit code. */
  problems: number;
}

/** The file store of `target`: its data directory's disk or its bucket; null when unknown. */
function storeOf(target: CheckTarget): FileStore | null {
  if (target.dataDir === null) return null;
  return openFileStore(target.dataDir, target.objects ?? { backend: 'disk' });
}

async function diskOf(
  store: FileStore | null,
  objects: number,
): Promise<Pick<Inventory, 'disk' | 'diskNote'>> {
  if (store === null) return { disk: null, diskNote: 'files on disk not examined' };
  const files = await store.inventory();
  // A store with objects always has files: none at all means a wrong DATA_DIR (or bucket), and
  // reporting every object's file as missing would only mislead.
  if (files.length === 0 && objects > 0) {
    return { disk: null, diskNote: `files on disk not examined: ${store.location} is empty` };
  }
  return { disk: files, diskNote: `files in ${store.location}` };
}

/** Reads rows, objects and (where possible) files of `target`. */
export async function readInventory(target: CheckTarget): Promise<Inventory> {
  if (target.kind === 'database') {
    const rows = await readDatabaseRows(target.db);
    // Files are scanned after the rows: a file written meanwhile is young (within the grace).
    return {
      source: target.label,
      ...rows,
      ...(await diskOf(storeOf(target), rows.objects.length)),
    };
  }
  const client = serviceClient(target.url, target.serviceRoleKey);
  const documents = await listAllDocuments(client);
  const versionFiles = await listVersionFiles(client);
  const buckets = await listBucketIds(client);
  const objects: ObjectEntry[] = [];
  for (const bucket of buckets) objects.push(...(await listBucketObjects(client, bucket)));
  const source = `the API of ${target.url}`;
  if (target.dataDir !== null) {
    const versions = await objectVersions(client, objects);
    // An object removed between the listing and `info` no longer exists: leave it out.
    const known = objects.flatMap((object, i) =>
      versions[i] ? [{ ...object, version: versions[i] }] : [],
    );
    return {
      source,
      documents,
      versionFiles,
      objects: known,
      buckets,
      storageTotalDrifts: [],
      ...(await diskOf(storeOf(target), known.length)),
    };
  }
  const states = await probeFiles(target.url, target.serviceRoleKey, objects);
  return {
    source,
    documents,
    versionFiles,
    objects: objects.map((object, i) => ({ ...object, fileState: states[i]! })),
    buckets,
    storageTotalDrifts: [],
    disk: null,
    diskNote: `files checked through the API (a one-byte read of each object); ${
      target.noDiskReason ?? 'no data directory given'
    }`,
  };
}

/**
 * Keeps only the missing-file findings that a second reading shows again: on a store that a
 * running server changes, a document deleted (row, then file) between two reads of the first
 * pass would otherwise look like a document without its file.
 */
function confirmed(first: Findings, second: Findings): Findings {
  const documents = new Set(second.documentsWithoutFile.map((f) => `${f.document.id}:${f.reason}`));
  const sizes = new Set(second.sizeMismatches.map((f) => f.document.id));
  const objects = new Set(second.objectsWithoutFile.map((o) => `${o.id}:${o.version}`));
  return {
    ...first,
    documentsWithoutFile: first.documentsWithoutFile.filter((f) =>
      documents.has(`${f.document.id}:${f.reason}`),
    ),
    sizeMismatches: first.sizeMismatches.filter((f) => sizes.has(f.document.id)),
    objectsWithoutFile: first.objectsWithoutFile.filter((o) => objects.has(`${o.id}:${o.version}`)),
  };
}

/** Checks `target` and returns what it found. Changes nothing. */
export async function checkConsistency(
  target: CheckTarget,
  options: CheckOptions,
): Promise<ConsistencyReport> {
  const inventory = await readInventory(target);
  let findings = compareInventory(inventory, { graceSeconds: options.graceSeconds });
  const live = target.kind === 'api' || !target.quiescent;
  const missing =
    findings.documentsWithoutFile.length +
    findings.sizeMismatches.length +
    findings.objectsWithoutFile.length;
  if (live && missing > 0) {
    const again = compareInventory(await readInventory(target), {
      graceSeconds: options.graceSeconds,
    });
    findings = confirmed(findings, again);
  }
  return {
    source: inventory.source,
    diskNote: inventory.diskNote,
    counts: {
      documents: inventory.documents.length,
      objects: inventory.objects.length,
      buckets: inventory.buckets,
      files: inventory.disk?.length ?? null,
    },
    graceSeconds: options.graceSeconds,
    findings,
    problems: problemCount(findings),
  };
}

export interface FixResult {
  /** Orphaned objects of the documents bucket removed (row and file). */
  objectsRemoved: number;
  /** Unreferenced files removed from disk. */
  filesRemoved: number;
  /** Organisations whose running storage total was recounted from their objects. */
  totalsRecounted: number;
}

/**
 * The repairs that cannot lose anything a user can see: it removes what no document points at
 * and that is older than the grace period, and recounts a running storage total that differs
 * from its organisation's objects (after the removals, which keep the totals themselves).
 * Orphaned objects of the documents bucket are invisible in the app (it lists document rows),
 * and files without a storage row can never be served. Documents without their file are never
 * touched: only a person can decide whether to upload the file again or delete the document.
 */
export async function fixOrphans(target: CheckTarget, findings: Findings): Promise<FixResult> {
  const orphanObjects = findings.orphanObjects.map((aged) => aged.item);
  let objectsRemoved = 0;
  let filesRemoved = 0;
  let totalsRecounted = 0;
  const store = storeOf(target);
  if (target.kind === 'database') {
    const versions = await deleteOrphanObjectRows(
      target.db,
      orphanObjects.map((object) => object.id),
    );
    objectsRemoved = versions.length;
    // With no data directory the files stay; the server's start-up sweep removes them.
    if (store !== null) {
      for (const version of versions) await store.remove(version);
    }
    totalsRecounted = await recountStorageTotals(
      target.db,
      findings.storageTotalDrifts.map((drift) => drift.organizationId),
    );
  } else {
    objectsRemoved = await removeOrphansThroughApi(target, orphanObjects);
  }
  if (store !== null) {
    for (const { item } of findings.orphanFiles) {
      await store.removeEntry(item.path);
      filesRemoved++;
    }
  }
  return { objectsRemoved, filesRemoved, totalsRecounted };
}

async function removeOrphansThroughApi(
  target: Extract<CheckTarget, { kind: 'api' }>,
  objects: ObjectEntry[],
): Promise<number> {
  const client = serviceClient(target.url, target.serviceRoleKey);
  let removed = 0;
  for (let i = 0; i < objects.length; i += 100) {
    const names = objects.slice(i, i + 100).map((object) => object.name);
    // A document may have been added for one of them since the check: keep those.
    const { data, error } = await client
      .from('documents')
      .select('file_path')
      .in('file_path', names);
    if (error) throw new Error(`Could not re-check documents: ${error.message}`);
    const kept = new Set((data as { file_path: string }[]).map((row) => row.file_path));
    // Nor an earlier version of a document.
    const versions = await client
      .from('document_versions')
      .select('file_path')
      .in('file_path', names);
    if (versions.error && versions.error.code !== 'PGRST205') {
      throw new Error(`Could not re-check document versions: ${versions.error.message}`);
    }
    for (const row of (versions.data ?? []) as { file_path: string }[]) kept.add(row.file_path);
    const remove = names.filter((name) => !kept.has(name));
    if (remove.length === 0) continue;
    const result = await client.storage.from(DOCUMENTS_BUCKET).remove(remove);
    if (result.error) throw new Error(`Could not remove orphaned files: ${result.error.message}`);
    removed += result.data.length;
  }
  return removed;
}
