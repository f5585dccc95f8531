// The entry of the database worker thread (pglite-worker.ts, started by worker-connection.ts).
// A new thread does not inherit the main thread's TypeScript loader (tsx, or Vitest's
// transform), so this small entry is plain JavaScript and registers tsx in its own thread first,
// as the CPU pool's entry does (server/workers/worker.mjs).
import { register } from 'tsx/esm/api';

register();
await import('./pglite-worker.ts');
