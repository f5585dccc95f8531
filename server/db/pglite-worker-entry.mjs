// The entry of the database worker thread (pglite-worker.ts, started by worker-connection.ts).
// A new thread does not inherit the main thread's TypeScript loader: this small entry is plain
// JavaScript that loads the worker's TypeScript itself (server/import-typescript.mjs).
import { importTypeScript } from '../import-typescript.mjs';

await importTypeScript(new URL('./pglite-worker.ts', import.meta.url).href);
