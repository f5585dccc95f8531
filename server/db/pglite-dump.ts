import type { PGlite } from '@electric-sql/pglite';
import { writeFile } from 'node:fs/promises';

/**
 * Writes the whole PGlite database to `file` as PGlite's own tarball of its data directory
 * (`dumpDataDir`), which `PGlite.create({ loadDataDir })` opens again. A checkpoint first
 * writes every change into the data files, so the copy needs no recovery when it is opened.
 * Blocks the thread it runs on for the whole dump: call it in the database's worker thread or
 * in a tool that serves nothing else.
 */
export async function dumpPgliteTo(pglite: PGlite, file: string): Promise<void> {
  await pglite.exec('checkpoint');
  const dump = await pglite.dumpDataDir('none');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
}
