/**
 * `npm run backup` of a running installation, and `npm run restore` of what it wrote (issue 15,
 * item 5).
 *
 * A Steward server runs in its own process, as `npm start` runs it, with one organisation of
 * BENCH_BACKUP_FILES documents (default 1,000) of BENCH_BACKUP_KB kilobytes of random bytes each
 * (default 100), uploaded through the API. `npm run backup` then runs beside it while a browser
 * fetches `/config.json` one request after another (the request thread's responsiveness, as in
 * the isolation benchmark) and a member lists the organisation's documents one read after
 * another (the database's). The same two measures are taken with the server idle first.
 * Then `npm run restore` restores the archive into a new data directory.
 *
 * No target is set by the issue; recorded: the backup's and the restore's time, the archive's
 * size, and both measures idle and during the backup.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { startSteward, type StewardProcess } from './support/steward-process.ts';

const FILES = Number(process.env.BENCH_BACKUP_FILES ?? 1000);
const FILE_BYTES = Number(process.env.BENCH_BACKUP_KB ?? 100) * 1024;
const IDLE_MS = 5000;
const rootDir = path.resolve(import.meta.dirname, '..');
const JWT_SECRET = randomBytes(32).toString('hex');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const summary = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, ` +
  `max ${Math.max(...values).toFixed(1)} ms (${values.length} requests)`;

/** Runs `scripts/<script>` with the server's settings; its time in milliseconds. */
async function runScript(script: string, file: string, dataDir: string, port: number) {
  const started = performance.now();
  const child = spawn(
    path.join(rootDir, 'node_modules', '.bin', 'tsx'),
    [`scripts/${script}`, file],
    {
      cwd: rootDir,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        JWT_SECRET,
      },
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} failed:\n${output}`);
  return { ms: performance.now() - started, output: output.trim() };
}

/** Times requests made one after another until `until` settles. */
async function timeRequests(request: () => Promise<unknown>, until: Promise<unknown>) {
  let done = false;
  void until.finally(() => (done = true));
  const times: number[] = [];
  while (!done) {
    const started = performance.now();
    await request();
    times.push(performance.now() - started);
  }
  return times;
}

export async function run() {
  const work = await mkdtemp(path.join(os.tmpdir(), 'steward-bench-backup-'));
  const dataDir = path.join(work, 'data');
  let server: StewardProcess | null = null;
  try {
    server = await startSteward({ dataDir, jwtSecret: JWT_SECRET });
    const member: SupabaseClient = createClient(server.url, server.keys.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    });
    const email = `backup-${randomBytes(4).toString('hex')}@example.test`;
    const signUp = await member.auth.signUp({ email, password: 'correct horse battery' });
    if (signUp.error) throw signUp.error;
    const org = await member.rpc('create_organization', { name: 'Backup Church' });
    if (org.error) throw org.error;
    const { data: profile } = await member
      .from('user_profiles')
      .select('organization_id')
      .eq('id', signUp.data.user!.id)
      .single<{ organization_id: string }>();
    const organizationId = profile!.organization_id;

    const uploadStarted = performance.now();
    for (let start = 0; start < FILES; start += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, FILES - start) }, async (_, i) => {
          const name = `Document ${start + i}.bin`;
          const filePath = `documents/${organizationId}/${start + i}.bin`;
          const upload = await member.storage
            .from('documents')
            .upload(filePath, randomBytes(FILE_BYTES), { contentType: 'application/octet-stream' });
          if (upload.error) throw upload.error;
          const row = await member.from('documents').insert({
            organization_id: organizationId,
            name,
            category: 'Reports',
            size: FILE_BYTES,
            file_path: filePath,
            tags: [],
            status: 'Active',
          });
          if (row.error) throw row.error;
        }),
      );
    }
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;

    const url = server.url;
    const config = () => fetch(`${url}/config.json`).then((response) => response.arrayBuffer());
    const list = async () => {
      const { error } = await member.from('documents').select('id, name').limit(100);
      if (error) throw error;
    };
    const idle = new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const [configIdle, listIdle] = await Promise.all([
      timeRequests(config, idle),
      timeRequests(list, idle),
    ]);

    const file = path.join(work, 'steward.tar.gz');
    const backup = runScript('backup.ts', file, dataDir, server.port);
    const [configDuring, listDuring] = await Promise.all([
      timeRequests(config, backup),
      timeRequests(list, backup),
    ]);
    const backupResult = await backup;
    const archiveMb = (await stat(file)).size / 1024 / 1024;
    await server.kill('SIGTERM');
    server = null;

    const restore = await runScript('restore.ts', file, path.join(work, 'restored'), 0);
    return {
      name: 'backup',
      lines: [
        `installation: ${FILES} documents of ${FILE_BYTES / 1024} KB (uploaded in ${uploadSeconds.toFixed(0)} s)`,
        `npm run backup (server running): ${(backupResult.ms / 1000).toFixed(1)} s, archive ${archiveMb.toFixed(1)} MB`,
        `  ${backupResult.output}`,
        `/config.json, idle:            ${summary(configIdle)}`,
        `/config.json, during backup:   ${summary(configDuring)}`,
        `documents list, idle:          ${summary(listIdle)}`,
        `documents list, during backup: ${summary(listDuring)}`,
        `npm run restore: ${(restore.ms / 1000).toFixed(1)} s`,
      ],
    };
  } finally {
    await server?.kill('SIGKILL');
    await rm(work, { recursive: true, force: true });
  }
}
