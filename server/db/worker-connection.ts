import { Worker } from 'node:worker_threads';
import type { PgliteWorkerData } from './pglite-worker.ts';
import type { WorkerAnswer, WorkerRequest, WorkerStart } from './pglite-messages.ts';
import { errorFromData } from './pglite-messages.ts';

type Pending = {
  resolve: (answer: WorkerAnswer & { ok: true }) => void;
  reject: (e: Error) => void;
};
type Request = WorkerRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id'>
    : never
  : never;

const entryFile = new URL('./pglite-worker-entry.mjs', import.meta.url);

/** One PGlite worker thread and the requests waiting for its answers. */
export class WorkerConnection {
  readonly started: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  /** Why the worker is gone, once it is: every later request fails with it. */
  #gone: Error | null = null;

  constructor(data: PgliteWorkerData, onUnexpectedExit: (error: Error) => void) {
    this.#worker = new Worker(entryFile, {
      workerData: data,
      // The data directory's bytes, when given, are handed over rather than copied.
      transferList: data.loadDataDir ? [data.loadDataDir.buffer as ArrayBuffer] : [],
    });
    this.started = new Promise<void>((resolve, reject) => {
      const onStart = (message: WorkerStart) => {
        if (message.started) resolve();
        else reject(errorFromData(message.error));
      };
      this.#worker.once('message', onStart);
      this.#worker.once('error', reject);
      this.#worker.once('exit', (code) => reject(new Error(`database worker exited (${code})`)));
    });
    this.started.then(
      () => this.#worker.on('message', (answer: WorkerAnswer) => this.#settle(answer)),
      () => undefined,
    );
    const fail = (error: Error) => {
      if (this.#gone) return;
      this.#gone = error;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
      onUnexpectedExit(error);
    };
    this.#worker.on('error', (error) => fail(error));
    this.#worker.on('exit', (code) => fail(new Error(`database worker exited (${code})`)));
  }

  request(request: Request): Promise<WorkerAnswer & { ok: true }> {
    if (this.#gone) return Promise.reject(this.#gone);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id } as WorkerRequest);
    });
  }

  /** Stops the worker at once, mid-statement if need be; pending requests fail with `reason`. */
  async terminate(reason: Error): Promise<void> {
    if (!this.#gone) {
      this.#gone = reason;
      for (const pending of this.#pending.values()) pending.reject(reason);
      this.#pending.clear();
    }
    await this.#worker.terminate();
  }

  #settle(answer: WorkerAnswer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    if (answer.ok) pending.resolve(answer);
    else pending.reject(errorFromData(answer.error));
  }
}
