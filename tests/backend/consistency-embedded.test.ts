import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../server/db/pglite.ts';
import { scratchDir } from '../support/scratch.ts';
import { copyPgliteTemplate } from '../support/template.ts';
import { exists, removeCheckScript, runCheck, serveOn } from './consistency-check.ts';

// The consistency check on an embedded (PGlite) data directory that it must not open, whatever
// database a run's other servers use: `npm test` runs this file on its PGlite pass only
// (scripts/database-test-files.ts, EMBEDDED_DATABASE_ONLY).

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await removeCheckScript();
});

async function newDataDir(): Promise<string> {
  const dataDir = await scratchDir('steward-consistency-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return dataDir;
}

describe('check-consistency on an embedded data directory', () => {
  it('refuses to open an embedded database that a running server holds', async () => {
    const dataDir = await newDataDir();
    const dbDir = path.join(dataDir, 'db');
    await copyPgliteTemplate('app', dbDir);
    const server = await serveOn(dataDir, await openPglite({ dataDir: dbDir }));
    try {
      const result = await runCheck([], { DATA_DIR: dataDir });
      expect(result.stderr).toContain(`${dataDir} is in use by process ${process.pid}`);
      expect(result.stderr).toContain('--url');
      expect(result.code).toBe(2);
    } finally {
      await server.close();
    }
    // Stopped, it opens.
    const result = await runCheck([], { DATA_DIR: dataDir });
    expect(result.stdout).toContain('Result: consistent.');
    expect(result.code).toBe(0);
  }, 120_000);

  it('explains when there is no database to check', async () => {
    const dataDir = await newDataDir();
    const result = await runCheck([], { DATA_DIR: dataDir });
    expect(result.stderr).toContain(`There is no Steward database in ${path.join(dataDir, 'db')}`);
    expect(result.code).toBe(2);
    // And it did not create one.
    expect(await exists(path.join(dataDir, 'db'))).toBe(false);
  }, 60_000);
});
