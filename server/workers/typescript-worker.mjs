// Entry of a worker thread that runs one of the server's TypeScript modules. A worker does not
// inherit the main thread's module hooks (tsx, Vitest), so it registers tsx's loader itself and
// then imports the module named by `workerData.typescriptModule` (a file URL).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.typescriptModule);
