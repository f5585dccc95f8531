import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { deriveKeys, type ApiKeys } from '../../server/http/keys.ts';
import { serverNodeFlags } from '../../server/node-flags.ts';

const rootDir = path.resolve(import.meta.dirname, '..', '..');

/** `tsx server/index.ts` running in its own process group, as an administrator starts it. */
export interface StewardProcess {
  url: string;
  port: number;
  keys: ApiKeys;
  dataDir: string;
  child: ChildProcess;
  /** Everything the server printed, for error messages. */
  output(): string;
  /** Sends `signal` to the server's whole process group (tsx runs node as a child). */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface StartStewardOptions {
  dataDir: string;
  /** Fixed, so that tokens issued before a restart stay valid after it. */
  jwtSecret: string;
  /** A restart passes the previous port, so clients made for the first server still reach it. */
  port?: number;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts the embedded backend on a free port and resolves once `/config.json` answers. */
export async function startSteward(options: StartStewardOptions): Promise<StewardProcess> {
  const port = options.port ?? (await freePort());
  // BENCH_CPU_PROF_DIR: a V8 CPU profile of the server, written there when it stops cleanly.
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(
    path.join(rootDir, 'node_modules', '.bin', 'tsx'),
    [...serverNodeFlags, ...profile, 'server/index.ts'],
    {
      cwd: rootDir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATA_DIR: options.dataDir,
        DATABASE_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        JWT_SECRET: options.jwtSecret,
        LOG_REQUESTS: '0',
        ...options.env,
      },
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // Already gone.
    }
    await exited;
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited during start-up:\n${output}`);
    }
    const ok = await fetch(`${url}/config.json`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await kill('SIGKILL');
      throw new Error(`the server did not start in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    keys: deriveKeys(options.jwtSecret),
    dataDir: options.dataDir,
    child,
    output: () => output,
    kill,
  };
}

/** The largest resident set any process of the server's group reached (VmHWM), in MB. */
export async function peakMemoryMb(server: StewardProcess): Promise<number> {
  let peak = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== server.child.pid) continue;
    const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peak = Math.max(peak, kb / 1024);
  }
  return peak;
}
