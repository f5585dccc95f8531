/**
 * The worker thread that owns the embedded database: it opens PGlite on the data directory it
 * is given and runs what the main thread sends, one request at a time (pglite-messages.ts).
 * Postgres in WebAssembly blocks the thread it runs on for the whole of a statement, so it must
 * never share a thread with the HTTP server (see pglite-host.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { batchCommits, encodeColumn } from './database.ts';
import { isTextValue } from './pglite-batch.ts';
import { dumpPgliteTo } from './pglite-dump.ts';
import { openPglite } from './pglite.ts';
import type { WorkerAnswer, WorkerRequest, WorkerStart } from './pglite-messages.ts';
import { errorToData } from './pglite-messages.ts';

export interface PgliteWorkerData {
  dataDir: string;
  /** A dumped data directory (`dumpDataDir`) to start a new database from. */
  loadDataDir?: Uint8Array;
  /** PGlite's WebAssembly, compiled once by the main thread (pglite-wasm.ts). */
  wasmModule?: WebAssembly.Module;
}

const port = parentPort!;
const options = workerData as PgliteWorkerData;

async function start() {
  const db = await openPglite({
    dataDir: options.dataDir,
    ...(options.wasmModule ? { wasmModule: options.wasmModule } : {}),
    ...(options.loadDataDir
      ? { loadDataDir: new Blob([options.loadDataDir as Uint8Array<ArrayBuffer>]) }
      : {}),
  });
  const { batches } = db;

  async function answer(request: WorkerRequest): Promise<WorkerAnswer> {
    const { id } = request;
    switch (request.op) {
      case 'query': {
        const result = request.params.every(isTextValue)
          ? await batches.query(request.sql, request.params)
          : await db.query(request.sql, request.params);
        return { id, ok: true, rows: result.rows, rowCount: result.rowCount };
      }
      case 'exec':
        await db.exec(request.sql);
        return { id, ok: true, rows: [], rowCount: 0 };
      case 'batch': {
        const rows = await batches.run(request.statements, request.readOnly, request.rowsOf);
        // Its end is known from its rows: ended here, without another message (database.ts).
        if (!request.readOnly && request.ends) {
          await batches.finish(batchCommits(rows, request.ends));
        }
        return { id, ok: true, rows, rowCount: rows.length };
      }
      case 'repeat': {
        const until = performance.now() + request.seconds * 1000;
        let times = 0;
        while (performance.now() < until) {
          await batches.run(request.statements, true);
          times += 1;
        }
        return { id, ok: true, rows: [], rowCount: times };
      }
      case 'finish':
        await batches.finish(request.commit);
        return { id, ok: true, rows: [], rowCount: 0 };
      case 'dump':
        await dumpPgliteTo(db.pglite, request.file);
        return { id, ok: true, rows: [], rowCount: 0 };
      case 'close':
        await db.close();
        return { id, ok: true, rows: [], rowCount: 0 };
    }
  }

  /**
   * Posts an answer. A batch's `bytesColumn` is encoded here and its bytes transferred, not
   * copied: the main thread sends them to the socket as they are.
   */
  function post(request: WorkerRequest, reply: WorkerAnswer): void {
    const bytesColumn = request.op === 'batch' ? request.bytesColumn : undefined;
    if (bytesColumn === undefined || !reply.ok) port.postMessage(reply);
    else port.postMessage(reply, encodeColumn(reply.rows, bytesColumn));
  }

  // Strictly one request after another, whatever arrives meanwhile.
  let previous: Promise<void> = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    previous = previous.then(() =>
      answer(request).then(
        (reply) => post(request, reply),
        (error: unknown) =>
          port.postMessage({
            id: request.id,
            ok: false,
            error: errorToData(error),
          } satisfies WorkerAnswer),
      ),
    );
  });
  port.postMessage({ started: true } satisfies WorkerStart);
}

start().catch((error: unknown) => {
  port.postMessage({ started: false, error: errorToData(error) } satisfies WorkerStart);
});
