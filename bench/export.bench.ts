/**
 * Export of a large organisation (issue 15): time, the server's peak memory, and how the
 * request thread answers meanwhile.
 *
 * A Steward server runs in its own process (`npm start`, PGlite). Organisation A gets
 * BENCH_EXPORT_DOCUMENTS documents (default 10,000), each a file of BENCH_EXPORT_FILE_KB
 * random, incompressible kilobytes (default 100: 1 GB in all), uploaded through Storage. An
 * admin of A starts an export; until it is ready, organisation B reads its documents and a
 * browser fetches `/config.json`, one request after another (the isolation benchmark's
 * measure), and the server's resident memory is sampled. The same measures are taken with the
 * server idle first. Targets: the export finishes; `/config.json` p99 < 50 ms and B's read p99
 * < 1 s during the export; peak memory grows by less than 256 MB however large the
 * organisation (the ZIP is streamed, one file at a time).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { measure, newMember, percentile, type Member } from './isolation.bench.ts';
import { startSteward, type StewardProcess } from './support/steward-process.ts';

const DOCUMENTS = Number(process.env.BENCH_EXPORT_DOCUMENTS ?? 10_000);
const FILE_BYTES = Number(process.env.BENCH_EXPORT_FILE_KB ?? 100) * 1024;
const IDLE_MS = 10_000;
const UPLOADS_AT_ONCE = 8;
const MEMORY_GROWTH_LIMIT = 256 * 1024 ** 2;

const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MB`;

/** The resident memory of the server: the largest process of its group (node, not tsx). */
function serverRss(server: StewardProcess): number {
  const out = execFileSync('ps', ['-o', 'rss=', '-g', String(server.child.pid)], {
    encoding: 'utf8',
  });
  return Math.max(...out.split('\n').filter(Boolean).map(Number)) * 1024;
}

/** Uploads `count` files of `bytes` random bytes and records a document for each. */
async function addDocuments(member: Member, count: number, bytes: number): Promise<void> {
  let next = 0;
  const rows: Record<string, unknown>[] = [];
  await Promise.all(
    Array.from({ length: UPLOADS_AT_ONCE }, async () => {
      while (next < count) {
        const i = next++;
        const filePath = `documents/${member.organizationId}/${i}-${randomBytes(4).toString('hex')}.pdf`;
        const { error } = await member.client.storage
          .from('documents')
          .upload(filePath, randomBytes(bytes), { contentType: 'application/pdf' });
        if (error) throw new Error(`upload failed: ${error.message}`);
        rows.push({
          organization_id: member.organizationId,
          name: `Document ${i}.pdf`,
          category: ['HR', 'Legal', 'Reports', 'Governance'][i % 4],
          size: bytes,
          file_path: filePath,
          tags: ['bench'],
          status: 'Active',
        });
      }
    }),
  );
  for (let start = 0; start < rows.length; start += 250) {
    const { error } = await member.client.from('documents').insert(rows.slice(start, start + 250));
    if (error) throw new Error(`insert failed: ${error.message}`);
  }
}

export async function run(): Promise<{ name: string; lines: string[]; pass: boolean }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'steward-bench-export-'));
  const server = await startSteward({ dataDir, jwtSecret: randomBytes(32).toString('hex') });
  try {
    const owner = await newMember(server, 'Exporter');
    const other = await newMember(server, 'Neighbour');
    const seeded = performance.now();
    await addDocuments(owner, DOCUMENTS, FILE_BYTES);
    await addDocuments(other, 200, 1000);
    const seedSeconds = (performance.now() - seeded) / 1000;

    await measure(server, other, after(2000));
    const idle = await measure(server, other, after(IDLE_MS));
    const rssBefore = serverRss(server);

    let done: (status: string) => void = () => {};
    const finished = new Promise<string>((resolve) => (done = resolve));
    const started = performance.now();
    const { data: row, error } = await owner.client
      .rpc('start_organization_export', { include_versions: false })
      .single<{ id: string }>();
    if (error || !row) throw new Error(`start_organization_export: ${error?.message}`);
    let peakRss = rssBefore;
    const watch = (async () => {
      for (;;) {
        peakRss = Math.max(peakRss, serverRss(server));
        const { data } = await owner.client
          .from('organization_exports')
          .select('status, size, document_count')
          .eq('id', row.id)
          .single<{ status: string; size: number | null; document_count: number | null }>();
        if (data && !['queued', 'running'].includes(data.status)) {
          done(data.status);
          return data;
        }
        await after(250);
      }
    })();
    const busy = await measure(
      server,
      other,
      finished.then(() => undefined),
    );
    const result = await watch;
    const seconds = (performance.now() - started) / 1000;

    const p = (values: number[]) =>
      `p50 ${fmt(percentile(values, 50))}, p99 ${fmt(percentile(values, 99))} (${values.length} requests)`;
    const growth = peakRss - rssBefore;
    const configP99 = percentile(busy.config, 99);
    const readP99 = percentile(busy.read, 99);
    const pass =
      result.status === 'ready' && configP99 < 50 && readP99 < 1000 && growth < MEMORY_GROWTH_LIMIT;
    return {
      name: `export (${DOCUMENTS} documents × ${FILE_BYTES / 1024} KB)`,
      pass,
      lines: [
        `organisation: ${DOCUMENTS} documents of ${FILE_BYTES / 1024} KB (${mb(DOCUMENTS * FILE_BYTES)}), seeded in ${seedSeconds.toFixed(0)} s`,
        `export: ${result.status} in ${seconds.toFixed(1)} s, ${result.document_count} documents, ZIP ${mb(result.size ?? 0)} (${((result.size ?? 0) / 1024 ** 2 / seconds).toFixed(1)} MB/s)`,
        `server memory (RSS): ${mb(rssBefore)} before, peak ${mb(peakRss)} during (+${mb(growth)}; target < +${mb(MEMORY_GROWTH_LIMIT)})`,
        `/config.json idle:   ${p(idle.config)}`,
        `/config.json export: ${p(busy.config)} (target p99 < 50 ms)`,
        `B's reads idle:      ${p(idle.read)}`,
        `B's reads export:    ${p(busy.read)} (target p99 < 1 s)`,
        `load average after: ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
      ],
    };
  } finally {
    await server.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
}
