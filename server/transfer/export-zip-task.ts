import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';

/** One file of an export ZIP: the stored bytes at `source`, under `name` in the ZIP. */
export interface ExportZipEntry {
  name: string;
  source: string;
  /** The stored size: the ZIP is refused if the file on disk has another. */
  size: number;
  /** Deflate (text, office XML…) or store as is (files that are compressed already). */
  compress: boolean;
  /** Last change, ms since the epoch. */
  mtime: number;
}

export interface ExportZipPlan {
  /** Where to write the ZIP (a temporary name: the caller renames it once complete). */
  target: string;
  manifestJson: string;
  manifestCsv: string;
  entries: ExportZipEntry[];
}

export interface WrittenZip {
  size: number;
  /** Quoted MD5, as the storage server's ETag. */
  eTag: string;
  sha256: string;
}

/**
 * Writes an organisation's export ZIP to `plan.target`, in a worker thread: the manifests
 * first, then each file streamed from the store one at a time (yazl opens the next file only
 * when the previous one is written), so memory stays bounded whatever the organisation's size.
 * The ZIP is flushed to disk before this returns; on failure the partial file is removed.
 */
export async function writeExportZip(plan: ExportZipPlan): Promise<WrittenZip> {
  const zip = new ZipFile();
  const now = new Date();
  zip.addBuffer(Buffer.from(plan.manifestJson), 'manifest.json', { mtime: now });
  zip.addBuffer(Buffer.from(plan.manifestCsv), 'manifest.csv', { mtime: now });
  for (const entry of plan.entries) {
    zip.addReadStreamLazy(
      entry.name,
      { mtime: new Date(entry.mtime), size: entry.size, compress: entry.compress },
      (done) => done(null, createReadStream(entry.source)),
    );
  }
  zip.end();

  const md5 = createHash('md5');
  const sha256 = createHash('sha256');
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      md5.update(chunk);
      sha256.update(chunk);
      size += chunk.byteLength;
      callback(null, chunk);
    },
  });
  // yazl reports a file it cannot read (or whose size changed) on the ZipFile itself.
  const failed = new Promise<never>((_, reject) => zip.on('error', reject));
  try {
    await Promise.race([
      pipeline(zip.outputStream, measure, createWriteStream(plan.target, { mode: 0o600 })),
      failed,
    ]);
    const file = await open(plan.target, 'r+');
    try {
      await file.sync();
    } finally {
      await file.close();
    }
  } catch (error) {
    (zip.outputStream as Readable).destroy();
    await rm(plan.target, { force: true });
    throw error;
  }
  return { size, eTag: `"${md5.digest('hex')}"`, sha256: sha256.digest('hex') };
}
