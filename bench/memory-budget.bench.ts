/**
 * The memory budget (server/workers/README.md): the server's whole process tree at the busiest
 * it gets at once. Forty users of four organisations act without pause (the load bench's mix,
 * which takes the server's own process to its largest: PGlite's memory does not shrink), and
 * meanwhile one member uploads files that make the background process read as much as it is
 * allowed: two PDFs of scans just under the pixel bound (read by OCR) and a Word document just
 * under the unpacked-size bound, which takes the background process to its memory cap.
 *
 * Reported: the tree's resident memory sampled every 50 ms (its peak is what was resident at one
 * moment; a process's spike between two samples is missed), and the two largest peaks of single
 * processes (VmHWM). Targets: the sampled peak within the 1.5 GiB budget, every upload's
 * text settled, and the load without errors or cross-organisation rows.
 *
 * `npx tsx bench/memory-budget.bench.ts` runs it alone; BENCH_DATABASE_URL runs it on a new
 * database of that PostgreSQL server (the server's own process is then far smaller).
 */
import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { hugeScanPdf, paragraphBombDocx } from '../tests/support/hostile-files.ts';
import { BUDGET_BYTES, textStates, treeMemory, upload } from './support/hostile-files-phase.ts';
import { runLoad, startLoadSession } from './support/load-session.ts';

const MIB = 1024 ** 2;
/** Seconds of load, and when in it the files are uploaded. */
const LOAD_SECONDS = 45;
const UPLOAD_AFTER_MS = 10_000;
/** Longest the bench waits for the files' text after the load. */
const SETTLE_LIMIT_MS = 180_000;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * `upload`, tried again while the server answers 503 (no turn for the request within its
 * deadline under the full load), as a client honouring Retry-After does.
 */
async function uploadRetrying(...args: Parameters<typeof upload>): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await upload(...args);
    } catch (error) {
      if (attempt === 20 || !/reduce your request rate|busy/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

export async function run() {
  // Made before the server starts: compressing the scans holds this process for a second.
  // 4,990 × 4,990 is 24.9 million pixels a page (the bound is 25 million); 400,000 paragraphs
  // are 15.2 MB of XML (the bound is 16 MiB).
  const scans = await hugeScanPdf(2, 4_990);
  const rota = paragraphBombDocx(400_000);
  const session = await startLoadSession(undefined, process.env.BENCH_DATABASE_URL);
  const backend = session.postgres ? 'PostgreSQL' : 'PGlite';
  const root = session.server.child.pid!;
  try {
    let sampling = true;
    let sampledPeak = 0;
    const processPeaks = new Map<number, number>();
    const sampler = (async () => {
      while (sampling) {
        let total = 0;
        for (const [pid, { rss, peak }] of await treeMemory(root)) {
          total += rss;
          processPeaks.set(pid, Math.max(processPeaks.get(pid) ?? 0, peak));
        }
        sampledPeak = Math.max(sampledPeak, total);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    // The first organisation's member uploads the files; the other four's users make the load
    // (its checks know only the files the load itself writes).
    const [uploaders, ...loaded] = session.organizations;
    const load = runLoad(session, {
      seconds: LOAD_SECONDS,
      users: loaded.flatMap((organization) => organization.users),
    });
    await new Promise((resolve) => setTimeout(resolve, UPLOAD_AFTER_MS));
    const member = uploaders!.users.find((user) => user.role === 'admin')!;
    const ids = [
      await uploadRetrying(member, 'scans-1.pdf', scans, 'application/pdf'),
      await uploadRetrying(member, 'rota.docx', rota, DOCX),
      await uploadRetrying(member, 'scans-2.pdf', scans, 'application/pdf'),
    ];
    const metrics = await load;
    const started = performance.now();
    let states: Awaited<ReturnType<typeof textStates>> = [];
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      states = await textStates(member, ids);
    } while (
      !(states.length === ids.length && states.every((s) => s.state !== 'pending')) &&
      performance.now() - started < SETTLE_LIMIT_MS
    );
    sampling = false;
    await sampler;

    const settled = states.filter((s) => s.state !== 'pending');
    const [largest = 0, next = 0] = [...processPeaks.values()].sort((a, b) => b - a);
    const { errors, requests } = metrics.totals;
    const crossOrganization = metrics.crossOrganization.length;
    const pass =
      sampledPeak <= BUDGET_BYTES &&
      settled.length === ids.length &&
      errors === 0 &&
      crossOrganization === 0;
    const mib = (bytes: number) => `${(bytes / MIB).toFixed(0)} MiB`;
    return {
      pass,
      lines: [
        `memory budget: ${backend}, the load mix (40 users of 4 organisations, ${LOAD_SECONDS} s: ${requests} requests, ${errors} errors, ${crossOrganization} cross-organisation), and after ${UPLOAD_AFTER_MS / 1000} s two PDFs of 24.9-million-pixel scans and a Word document of 15.2 MB of XML`,
        ...[...new Set(states.map((s) => `${s.state}: ${s.reason ?? '(text read)'}`))].map(
          (line) => `  ${line}`,
        ),
        `  files settled: ${settled.length} of ${ids.length}`,
        `  peak resident memory of the server's process tree, sampled every 50 ms: ${mib(sampledPeak)} (budget ${mib(BUDGET_BYTES)})`,
        `  each process's own peak (VmHWM): the largest ${mib(largest)} (the server's), the next ${mib(next)}; ${processPeaks.size} processes in all`,
        ...metrics.errorSamples.map((sample) => `  error: ${sample}`),
        ...metrics.table(),
        ...session.server
          .output()
          .split('\n')
          .filter((l) => l.includes('DEBUG503') || l.includes('    at '))
          .slice(-60),
        `  ${pass ? 'target met' : 'TARGET MISSED'}`,
      ],
    };
  } finally {
    await session.server.kill('SIGKILL');
    await session.postgres?.drop().catch(() => undefined);
    await rm(session.dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(result.lines.join('\n'));
  process.exitCode = result.pass ? 0 : 1;
}
