import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { serverNodeFlags } from '../../server/node-flags.ts';

/** A child process started by a bench, and the JSON line it printed once ready. */
export interface Child<T> {
  process: ChildProcess;
  ready: T;
  stop(): Promise<void>;
}

/**
 * Runs `script` with tsx in its own process (so it does not share the bench's event loop) and
 * waits for its first stdout line, parsed as JSON. `stop()` sends SIGTERM to that process only.
 * Node runs with the server's flags (server/node-flags.ts), the Steward server and the bare
 * references alike, so that they compare one runtime.
 * With BENCH_CPU_PROF_DIR set, the child writes a V8 CPU profile there when it stops (node
 * refuses `--cpu-prof` in NODE_OPTIONS, so it is passed here).
 */
export async function startChild<T>(
  script: string,
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<Child<T>> {
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(
    process.execPath,
    [...serverNodeFlags, ...profile, '--import', 'tsx', script],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const ready = await new Promise<T>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(buffer.slice(0, newline)) as T);
      } catch (error) {
        reject(error as Error);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready`));
    });
  });
  return {
    process: child,
    ready,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
