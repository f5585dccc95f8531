// The entry of every thread of the CPU pool (server/workers/cpu-pool.ts).
//
// The tasks are TypeScript, which a new thread cannot load by itself: the server's tsx loader
// (and Vitest's transform in tests) stays on the main thread. So this small entry is plain
// JavaScript that loads the task registry itself (server/import-typescript.mjs).
import { importTypeScript } from '../import-typescript.mjs';

const { cpuTasks } = await importTypeScript(new URL('./tasks.ts', import.meta.url).href);

/** Runs the task named `name` with `args` (see tasks.ts). */
export default function runTask({ name, args }) {
  if (!Object.hasOwn(cpuTasks, name)) throw new Error(`There is no CPU task named ${name}`);
  return cpuTasks[name](args);
}
