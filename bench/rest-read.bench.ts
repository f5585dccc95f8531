/**
 * REST read throughput: a signed-in user reads their 50 newest notes through `/rest/v1` (row-level
 * security on; 10,000 rows of theirs among 20,000), against a bare `node:http` server returning
 * the very same bytes. Both run in their own process; autocannon (10 connections) drives them
 * side by side in one run, alternating, and the ratio of requests per second is reported.
 * Target: REST ≥ 0.3 × bare. A third server returns the same bytes through Hono and the API
 * middleware, to show how much of the gap is the HTTP stack rather than the REST work.
 *
 * The reference that matters is the database's own floor for the same work (issue 27): the
 * statements Steward sends for one distinct read are recorded in the server's process, then
 * replayed without HTTP or REST, alternating with the rounds of `/rest/v1`. On PostgreSQL by
 * `pgbench -M extended` (one round trip per statement, the issue's reference) on as many
 * connections as Steward gives one caller, and for information as Steward sends them (one Sync
 * per read, statements prepared per connection); on PGlite by Steward's own database worker
 * looping over the batch by itself. Targets: every distinct read ≥ 0.5 × the floor on
 * PostgreSQL, ≥ 0.7 × on PGlite.
 *
 * `npx tsx bench/rest-read.bench.ts` runs it alone; `run()` is what bench/run.ts calls.
 * PostgreSQL instead of PGlite when BENCH_DATABASE_URL is set (a fresh database is created there).
 */
import autocannon from 'autocannon';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Statement } from '../server/db/database.ts';
import { startChild } from './support/child.ts';
import { pgbenchFloor, type FloorProtocol } from './support/pgbench.ts';
import type { ThreadCpu } from './support/process-cpu.ts';
import { cpuByThreadPerRequest, processCpuMicros, threadCpuMicros } from './support/process-cpu.ts';
import { freshPostgres } from './support/postgres.ts';
import type { WireQuery } from './support/statement-recorder.ts';

export interface RestReadOptions {
  /** Seconds per measured round; each server gets `rounds` rounds. */
  seconds?: number;
  rounds?: number;
  connections?: number;
}

/**
 * The same read repeated, as a share of bare `node:http` sending the same bytes: a target of
 * PGlite's, whose read cache answers a repeated read without the database (issue 27). On
 * PostgreSQL every read runs in the database (a cache there would be wrong as soon as another
 * process wrote), so there the ratio is shown for information, against the floor that applies.
 */
const TARGET = 0.3;
/** Every distinct read as a share of the database's floor for it. */
const FLOOR_TARGET = { PostgreSQL: 0.5, PGlite: 0.7 } as const;
const QUERY = '/rest/v1/notes?select=id,title,body,created_at&order=created_at.desc&limit=50';

interface Round {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time of the server's process per request answered (µs), when /proc tells. */
  cpuPerRequest: number | null;
  /** The same by thread of the server's process (µs), when /proc tells. */
  cpuByThread: ThreadCpu | null;
}

async function measure(
  server: { url: string; pid: number | undefined },
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  distinct = false,
): Promise<Round> {
  const url = server.url + QUERY;
  // Distinct: every request adds a filter no row matches (`title=neq.<n>`), so each asks the
  // database again (the read cache keys on the URL) and gets the same 50 rows back.
  let n = 0;
  const requests = distinct
    ? [
        {
          setupRequest: (request: { path: string }) => ({
            ...request,
            path: `${request.path}&title=neq.distinct-${(n += 1)}`,
          }),
        },
      ]
    : undefined;
  const cpuBefore = await processCpuMicros(server.pid);
  const threadsBefore = await threadCpuMicros(server.pid);
  const result = await autocannon({
    url,
    headers,
    connections,
    duration: seconds,
    pipelining: 1,
    ...(requests ? { requests } : {}),
  });
  const cpuAfter = await processCpuMicros(server.pid);
  const threadsAfter = await threadCpuMicros(server.pid);
  const answered = result['2xx'] + result.non2xx;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuPerRequest:
      cpuBefore === null || cpuAfter === null || answered === 0
        ? null
        : (cpuAfter - cpuBefore) / answered,
    cpuByThread: cpuByThreadPerRequest(server.pid, threadsBefore, threadsAfter, answered),
  };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export async function run(options: RestReadOptions = {}) {
  const seconds = options.seconds ?? 10;
  const rounds = options.rounds ?? 2;
  const connections = options.connections ?? 10;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'steward-bench-rest-'));
  const postgres = process.env.BENCH_DATABASE_URL
    ? await freshPostgres(process.env.BENCH_DATABASE_URL)
    : null;
  const stops: (() => Promise<void>)[] = [];
  try {
    const rest = await startChild<{
      url: string;
      token: string;
      anonKey: string;
      controlUrl: string;
      callerConnections: number;
    }>(path.join(import.meta.dirname, 'support', 'rest-server.ts'), {
      BENCH_DATA_DIR: dataDir,
      ...(postgres ? { BENCH_POSTGRES_URL: postgres.url } : {}),
    });
    stops.push(() => rest.stop());
    const headers = {
      apikey: rest.ready.anonKey,
      Authorization: `Bearer ${rest.ready.token}`,
      'Accept-Profile': 'public',
      'X-Client-Info': 'supabase-js-node/bench',
    };
    const probe = await fetch(rest.ready.url + QUERY, { headers });
    const bytes = Buffer.from(await probe.arrayBuffer());
    const rows = JSON.parse(bytes.toString()) as unknown[];
    if (probe.status !== 200 || rows.length !== 50) {
      throw new Error(`REST probe answered ${probe.status} with ${rows.length} rows`);
    }
    // What Steward sends to the database for one distinct read, as it sends it.
    const control = (what: string) =>
      fetch(rest.ready.controlUrl + what, { method: 'POST' }).then(async (response) => {
        if (!response.ok) throw new Error(`${what}: ${await response.text()}`);
        return response.json() as Promise<unknown>;
      });
    await control('/record');
    const recordedProbe = await fetch(`${rest.ready.url}${QUERY}&title=neq.distinct-0`, {
      headers,
    });
    await recordedProbe.arrayBuffer();
    const recorded = (await control('/recorded')) as { wire: WireQuery[]; batches: Statement[][] };
    const batch = recorded.batches.at(-1);
    if (recordedProbe.status !== 200 || recorded.batches.length !== 1 || !batch) {
      throw new Error(
        `recording the distinct read: ${recordedProbe.status}, ${recorded.batches.length} batches`,
      );
    }
    const floorOnce = async (protocol: FloorProtocol): Promise<number> => {
      if (postgres) {
        return pgbenchFloor(postgres.url, recorded.wire, {
          seconds,
          clients: rest.ready.callerConnections,
          scriptFile: path.join(dataDir, 'read.pgbench'),
          protocol,
        });
      }
      return ((await control(`/floor?seconds=${seconds}`)) as { perSecond: number }).perSecond;
    };

    const bodyFile = path.join(dataDir, 'body.json');
    await writeFile(bodyFile, bytes);
    const bare = await startChild<{ url: string }>(
      path.join(import.meta.dirname, 'support', 'bare-server.ts'),
      {
        BENCH_BODY_FILE: bodyFile,
        BENCH_CONTENT_TYPE: probe.headers.get('content-type') ?? 'application/json',
      },
    );
    stops.push(() => bare.stop());
    const framework = await startChild<{ url: string }>(
      path.join(import.meta.dirname, 'support', 'hono-server.ts'),
      {
        BENCH_BODY_FILE: bodyFile,
        BENCH_CONTENT_TYPE: probe.headers.get('content-type') ?? 'application/json',
      },
    );
    stops.push(() => framework.stop());

    const servers = {
      bare: { url: bare.ready.url, pid: bare.process.pid },
      framework: { url: framework.ready.url, pid: framework.process.pid },
      rest: { url: rest.ready.url, pid: rest.process.pid },
    };
    // Warm-up (JIT, caches), then alternate so both see the same machine conditions.
    await measure(servers.bare, headers, 2, connections);
    await measure(servers.framework, headers, 2, connections);
    await measure(servers.rest, headers, 2, connections);
    await measure(servers.rest, headers, 2, connections, true);
    const bareRounds: Round[] = [];
    const frameworkRounds: Round[] = [];
    const restRounds: Round[] = [];
    const distinctRounds: Round[] = [];
    const floorRounds: number[] = [];
    // PostgreSQL: also the floor of the statements sent as Steward sends them (one Sync).
    const asSentRounds: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      floorRounds.push(await floorOnce('round-trip-each'));
      if (postgres) asSentRounds.push(await floorOnce('as-sent'));
      bareRounds.push(await measure(servers.bare, headers, seconds, connections));
      frameworkRounds.push(await measure(servers.framework, headers, seconds, connections));
      restRounds.push(await measure(servers.rest, headers, seconds, connections));
      distinctRounds.push(await measure(servers.rest, headers, seconds, connections, true));
    }
    const frameworkRps = mean(frameworkRounds.map((r) => r.requestsPerSecond));
    const bareRps = mean(bareRounds.map((r) => r.requestsPerSecond));
    const restRps = mean(restRounds.map((r) => r.requestsPerSecond));
    const distinctRps = mean(distinctRounds.map((r) => r.requestsPerSecond));
    const ratio = restRps / bareRps;
    const floorRps = mean(floorRounds);
    const errors = [...restRounds, ...distinctRounds].reduce((n, r) => n + r.errors, 0);
    const backend = postgres ? 'PostgreSQL' : 'PGlite';
    const floorRatio = distinctRps / floorRps;
    const floorTarget = FLOOR_TARGET[backend];
    const wireStatements = recorded.wire.flatMap((query) => query.statements);
    const floorHow = postgres
      ? `pgbench -M extended, the ${wireStatements.length} statements Steward sent, one round trip per statement in begin … commit, ${rest.ready.callerConnections} connections (Steward's per caller)`
      : `the ${batch.length} statements of Steward's batch, looped inside its PGlite worker, no HTTP`;
    const fmt = (r: Round[]) =>
      `${mean(r.map((x) => x.requestsPerSecond)).toFixed(0)} req/s, p50 ${mean(r.map((x) => x.p50)).toFixed(1)} ms, p99 ${mean(r.map((x) => x.p99)).toFixed(1)} ms`;
    const cpu = (r: Round[]) => {
      const known = r.map((x) => x.cpuPerRequest).filter((x): x is number => x !== null);
      return known.length ? `${mean(known).toFixed(0)} µs` : '?';
    };
    // Where the distinct read's CPU goes: the floor's statements run on PGlite's worker alone.
    const byThread = (r: Round[]) => {
      const known = r.map((x) => x.cpuByThread).filter((x): x is ThreadCpu => x !== null);
      if (!known.length) return '?';
      const part = (pick: (x: ThreadCpu) => number) => mean(known.map(pick)).toFixed(0);
      const busiest = postgres ? 'busiest other thread' : 'PGlite worker';
      return `main thread ${part((x) => x.main)} µs, ${busiest} ${part((x) => x.busiest)} µs, other threads (V8's helpers, libuv) ${part((x) => x.others)} µs`;
    };
    const lines = [
      `REST read, 50 newest of 10,000 own rows (20,000 in the table), RLS, ${backend}, ${bytes.length} bytes per response`,
      `autocannon: ${connections} connections, ${rounds} × ${seconds} s per server, alternating, after a 2 s warm-up`,
      `  bare node:http (same bytes):          ${fmt(bareRounds)}`,
      `  Hono + API middleware (same bytes):   ${fmt(frameworkRounds)}`,
      `  /rest/v1, the same read repeated:     ${fmt(restRounds)}${errors ? ` (${errors} errors!)` : ''}`,
      `  /rest/v1, every read distinct:        ${fmt(distinctRounds)}`,
      postgres
        ? `  ratio REST / bare: ${ratio.toFixed(3)} (no read cache on PostgreSQL: each read runs in the database)`
        : `  ratio REST / bare: ${ratio.toFixed(3)} (target ≥ ${TARGET})${ratio >= TARGET ? '' : ' — below target'}`,
      `  ratio REST, every read distinct / bare: ${(distinctRps / bareRps).toFixed(3)} (each one runs in the database)`,
      `  ratio Hono stack / bare: ${(frameworkRps / bareRps).toFixed(3)} (the ceiling of any route, before its own work)`,
      `  floor of ${backend} for the distinct read: ${floorRps.toFixed(0)} reads/s (${floorHow})`,
      `  ratio REST, every read distinct / floor: ${floorRatio.toFixed(3)} (target ≥ ${floorTarget})${floorRatio >= floorTarget ? '' : ' — below target'}`,
      ...(postgres
        ? [
            `  floor as Steward sends it (pgbench, -M prepared, each message group between \\startpipeline and \\endpipeline, one Sync): ${mean(asSentRounds).toFixed(0)} reads/s; distinct / that floor: ${(distinctRps / mean(asSentRounds)).toFixed(3)}`,
          ]
        : []),
      `  ratio REST, the same read repeated / floor: ${(restRps / floorRps).toFixed(3)}`,
      `  CPU of the server's process per request (every thread; moves less with the machine's load than req/s): bare ${cpu(bareRounds)}, Hono + middleware ${cpu(frameworkRounds)}, repeated ${cpu(restRounds)}, distinct ${cpu(distinctRounds)}${postgres ? ' (PostgreSQL’s own processes not counted)' : ''}`,
      `  CPU per distinct read by thread of the server's process: ${byThread(distinctRounds)}${postgres ? '' : ` (the floor: one read per ${(1_000_000 / floorRps).toFixed(0)} µs in the worker's loop)`}`,
      `  Steward sent for one distinct read: ${recorded.wire.length ? `${recorded.wire.length} queries through pg (${recorded.wire.map((q) => q.statements.map((s) => s.sql.split(/\s+/).slice(0, 2).join(' ')).join(' + ')).join(' | ')}), ` : ''}one batch of ${batch.length}`,
    ];
    return {
      name: 'rest-read',
      backend,
      bareRps,
      restRps,
      distinctRps,
      ratio,
      floorRps,
      floorRatio,
      target: TARGET,
      pass: (postgres || ratio >= TARGET) && floorRatio >= floorTarget && errors === 0,
      lines,
    };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await postgres?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(result.lines.join('\n'));
}
