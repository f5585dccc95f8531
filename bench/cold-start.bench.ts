/**
 * Cold start of `npm start` (`tsx scripts/start.ts`, with the SPA already built): time from
 * spawning the process until `GET /config.json` answers 200, on a new data directory (PGlite
 * initdb, platform SQL and every migration) and on an existing one (reopen, nothing to apply).
 * Reported with ratios: new ÷ existing, and each ÷ the floor (a tsx process serving the same
 * path from bare `node:http`). Medians of `rounds` runs.
 *
 * The SPA is built once into a temporary DIST_DIR first (not timed) and its index.html dated in
 * the future, so no start rebuilds it even while the sources change.
 *
 * `npx tsx bench/cold-start.bench.ts` runs it alone; `run()` is what bench/run.ts calls.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serverNodeFlags } from '../server/node-flags.ts';

export interface ColdStartOptions {
  rounds?: number;
}

const rootDir = path.resolve(import.meta.dirname, '..');
const tsx = path.join(rootDir, 'node_modules', '.bin', 'tsx');

async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Spawns `script`, returns the milliseconds until /config.json answers 200, then stops it. */
async function timeStart(script: string, env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  // Its own process group: tsx runs the script in a child process, and both must stop.
  const child = spawn(tsx, [...serverNodeFlags, script], {
    cwd: rootDir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_REQUESTS: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const exited = once(child, 'exit');
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
      if (performance.now() - started > 180_000)
        throw new Error(`${script} did not answer in 180 s`);
      const ok = await fetch(`http://127.0.0.1:${port}/config.json`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(options: ColdStartOptions = {}) {
  const rounds = options.rounds ?? 3;
  const work = await mkdtemp(path.join(os.tmpdir(), 'steward-bench-start-'));
  const distDir = path.join(work, 'dist');
  const previousDist = process.env.DIST_DIR;
  try {
    process.env.DIST_DIR = distDir;
    const { buildIfStale } = await import('../scripts/build-if-stale.ts');
    await buildIfStale();
    const future = new Date(Date.now() + 7 * 24 * 3600 * 1000);
    await utimes(path.join(distDir, 'index.html'), future, future);

    const env = { DIST_DIR: distDir };
    const floor: number[] = [];
    const fresh: number[] = [];
    const existing: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      floor.push(await timeStart(path.join('bench', 'support', 'hello-server.ts'), env));
      const dataDir = path.join(work, `data-${i}`);
      fresh.push(await timeStart(path.join('scripts', 'start.ts'), { ...env, DATA_DIR: dataDir }));
      existing.push(
        await timeStart(path.join('scripts', 'start.ts'), { ...env, DATA_DIR: dataDir }),
      );
    }
    const [f, n, e] = [median(floor), median(fresh), median(existing)];
    const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
    const lines = [
      `Cold start of tsx scripts/start.ts (built SPA, PGlite), until /config.json answers; median of ${rounds}`,
      `  floor (tsx + bare node:http):   ${f.toFixed(0)} ms   [${ms(floor)}]`,
      `  existing data directory:        ${e.toFixed(0)} ms   [${ms(existing)}]  = ${(e / f).toFixed(1)} × floor`,
      `  new data directory:             ${n.toFixed(0)} ms   [${ms(fresh)}]  = ${(n / f).toFixed(1)} × floor`,
      `  ratio new ÷ existing: ${(n / e).toFixed(2)}`,
    ];
    return { name: 'cold-start', floorMs: f, existingMs: e, newMs: n, lines };
  } finally {
    if (previousDist === undefined) delete process.env.DIST_DIR;
    else process.env.DIST_DIR = previousDist;
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(result.lines.join('\n'));
}
