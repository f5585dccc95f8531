import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { readConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { startServer, type RunningServer } from '../../server/server.ts';
import { bundledScript } from '../support/bundled-script.ts';
import { rootDir } from '../support/template.ts';

// The consistency check run as a command, as administrators run it (`npm run
// check-consistency`: the script bundled once and run with `node`, bundled-script.ts), for
// consistency.test.ts and consistency-embedded.test.ts.

let checkScript: ReturnType<typeof bundledScript> | undefined;

/** Removes the bundled script (each file's `afterAll`); the next check bundles it again. */
export async function removeCheckScript(): Promise<void> {
  const removing = checkScript;
  checkScript = undefined;
  await (await removing)?.remove();
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the check with `args` and exactly the variables in `env` that concern it. */
export async function runCheck(
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  const base = { ...process.env };
  for (const name of ['DATA_DIR', 'DATABASE_URL', 'SUPABASE_SERVICE_ROLE_KEY', 'JWT_SECRET']) {
    delete base[name];
  }
  checkScript ??= bundledScript(path.join('scripts', 'check-consistency.ts'));
  const child = spawn(process.execPath, [(await checkScript).file, ...args], {
    cwd: rootDir,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A server on `dataDir` and `db`, as `npm start` runs one (the data directory persisted). */
export async function serveOn(dataDir: string, db: Database): Promise<RunningServer> {
  const config = {
    ...readConfig({ DATA_DIR: dataDir }),
    port: 0,
    host: '127.0.0.1',
    logRequests: false,
  };
  return startServer({ config, db, skipMigrations: true });
}

export const exists = async (file: string) => (await stat(file).catch(() => null)) !== null;
