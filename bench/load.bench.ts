/**
 * Load: 50 signed-in users of 5 organisations (per organisation 1 master admin, 2 admins and 7
 * users), each an unmodified supabase-js client, act without pause for 60 s against
 * `tsx server/index.ts` on a new PGlite data directory over loopback. The mix: list the newest
 * 50 documents, search by name, preview (signed link + fetch), dashboard counters, upload
 * (bytes + row), edit properties, edit content (bytes + size), invite (admins), and a probe of
 * another organisation's rows and file. Every returned row and every downloaded file is checked
 * to belong to the caller's organisation.
 *
 * Targets: zero errors, zero cross-organisation rows or files, and after a clean stop a
 * consistent store (scripts/check-consistency.ts on the data directory).
 *
 * `npx tsx bench/load.bench.ts` runs it alone; `run()` is what bench/run.ts calls. With
 * BENCH_DATABASE_URL the same run is on a new database of that PostgreSQL server.
 */
import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { cpuByThread, cpuPerRequest, readLoadCpu } from './support/load-cpu.ts';
import { runLoad, startLoadSession } from './support/load-session.ts';
import { peakMemoryMb } from './support/steward-process.ts';
import { checkStoppedDataDir, findingLines } from './support/store-check.ts';

export interface LoadOptions {
  seconds?: number;
  /** Seconds of one user acting alone before the load (the uncontended baseline). */
  aloneSeconds?: number;
}

export async function run(options: LoadOptions = {}) {
  const seconds = options.seconds ?? 60;
  const aloneSeconds = options.aloneSeconds ?? 10;
  const session = await startLoadSession(undefined, process.env.BENCH_DATABASE_URL);
  const backend = session.postgres ? 'PostgreSQL' : 'PGlite';
  try {
    // One admin alone first: the latency of each kind without contention, to read the loaded
    // figures against (absolute times drift on a shared machine; the ratio much less).
    const admin = session.organizations[0]!.users.find((user) => user.role === 'admin')!;
    const alone = await runLoad(session, { seconds: aloneSeconds, users: [admin] });
    // CPU per request of the load: the server's processes, and PostgreSQL's backends for it.
    const cpuBefore = await readLoadCpu(session.server.child.pid, session.postgres?.url);
    const metrics = await runLoad(session, { seconds });
    const cpuAfter = await readLoadCpu(session.server.child.pid, session.postgres?.url);
    const { requests, errors } = metrics.totals;
    const cpu = cpuPerRequest(cpuBefore, cpuAfter, requests);
    const threads = cpuByThread(cpuBefore, cpuAfter, requests);
    const peakMb = await peakMemoryMb(session.server);
    await session.server.kill('SIGTERM');
    const { report } = await checkStoppedDataDir(session.dataDir, {
      ...(session.postgres ? { databaseUrl: session.postgres.url } : {}),
    });

    const users = session.organizations.flatMap((o) => o.users);
    const roles = (role: string) => users.filter((u) => u.role === role).length;
    const crossOrg = metrics.crossOrganization.length;
    const { world } = session;
    const seeded = world.organizations * world.usersPerOrganization * world.documentsPerUser;
    const pass =
      errors === 0 && alone.totals.errors === 0 && crossOrg === 0 && report.problems === 0;
    const lines = [
      `load: ${users.length} users in ${session.organizations.length} organisations ` +
        `(${roles('master_admin')} master admins, ${roles('admin')} admins, ${roles('user')} users), ` +
        `supabase-js, no think time, ${metrics.seconds.toFixed(1)} s, ${backend}, tsx server/index.ts on loopback`,
      `  set-up: server start on a new data directory ${session.setup.server.toFixed(1)} s, ${users.length} sign-ups with invitations ${session.setup.people.toFixed(1)} s, ${seeded} documents uploaded ${session.setup.documents.toFixed(1)} s`,
      `  "alone": one admin acting by itself for ${alone.seconds.toFixed(0)} s first (${alone.totals.requests} requests, ${alone.totals.errors} errors)`,
      ...metrics.table(alone),
      `  throughput: ${(requests / metrics.seconds).toFixed(1)} requests/s (${requests} requests)`,
      ...(cpu
        ? [
            `  CPU per request: server ${cpu.server.toFixed(0)} µs` +
              (session.postgres ? `, PostgreSQL backends ${cpu.backends.toFixed(0)} µs` : ''),
          ]
        : []),
      ...(threads
        ? [
            `    the server's: main thread ${threads.main.toFixed(0)} µs, its busiest other thread ` +
              `${threads.busiestOther.toFixed(0)} µs (${session.postgres ? 'a worker' : 'the PGlite worker'}), ` +
              `its other threads ${threads.otherThreads.toFixed(0)} µs, other processes ${threads.otherProcesses.toFixed(0)} µs`,
          ]
        : []),
      `  server's peak resident memory (VmHWM, set-up included): ${peakMb.toFixed(0)} MB`,
      `  errors: ${errors}${metrics.errorSamples.length ? ` — e.g. ${metrics.errorSamples.slice(0, 5).join(' | ')}` : ''}`,
      `  cross-organisation rows or files seen: ${crossOrg}${crossOrg ? ` — e.g. ${metrics.crossOrganization.slice(0, 3).join(' | ')}` : ''}`,
      `  acknowledged: ${session.ledger.documents.size} documents, ${session.ledger.invitations.acked.size} invitations`,
      `  consistency check after a clean stop: ${report.problems} problems`,
      ...findingLines(report),
      `  ${pass ? 'PASS' : 'FAIL'} (targets: 0 errors, 0 cross-organisation, consistent store)`,
    ];
    return {
      name: 'load',
      backend,
      seconds: metrics.seconds,
      requests,
      requestsPerSecond: requests / metrics.seconds,
      cpuPerRequest: cpu,
      peakMemoryMb: peakMb,
      errors,
      crossOrganization: crossOrg,
      kinds: metrics.summary(),
      consistencyProblems: report.problems,
      pass,
      lines,
    };
  } finally {
    await session.server.kill('SIGKILL');
    await session.postgres?.drop().catch(() => undefined);
    await rm(session.dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seconds = Number(process.env.LOAD_SECONDS ?? 60);
  const result = await run({ seconds });
  console.log(result.lines.join('\n'));
  process.exitCode = result.pass ? 0 : 1;
}
