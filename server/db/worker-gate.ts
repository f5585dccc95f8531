import { QueueTimeoutError } from './fair-queue.ts';

/**
 * How work uses the PGlite worker (see `WorkerGate`):
 * - `shared`: one message, complete when answered, that may run behind any other work in the
 *   worker's queue (a read-only batch);
 * - `first`: one message, complete when answered, that must not wait in the worker behind other
 *   work, but behind which shared work may wait (a write the worker ends in its own message);
 * - `alone`: the worker to itself (a transaction over several messages).
 */
export type GateAccess = 'shared' | 'first' | 'alone';

/**
 * Who may send to the PGlite worker now. A message that is complete when the worker answers it
 * may have reads waiting behind it in the worker's own queue: the worker starts the next as soon
 * as it has answered one, instead of idling while the thread that serves HTTP receives the answer
 * and sends the next. A write waits for everything before it to be answered (`first`): work
 * ahead of it whose deadline passed would end the worker, and the write, perhaps committed by
 * then, would be answered as if the database had been busy. Work over several messages
 * (`alone`), such as a transaction, keeps a transaction open between them and has the gate
 * alone. Entries are granted in the order they came.
 */
export class WorkerGate {
  /** A holder has the worker to itself. */
  #alone = false;
  readonly #waiting: { access: GateAccess; grant: () => void }[] = [];
  /** When each holder leaves. */
  readonly #holders = new Set<Promise<void>>();

  /**
   * Resolves once work of `access` may send, with `leave` and `ahead`: when the work granted
   * before it has left, so that the worker has reached this work's first message. Rejects with
   * `QueueTimeoutError` when that has not happened within `maxWaitMs`.
   */
  enter(access: GateAccess, maxWaitMs = Infinity): Promise<GateEntry> {
    return new Promise((resolve, reject) => {
      const startedAt = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const waiting = {
        access,
        grant: () => {
          clearTimeout(timer);
          resolve(this.#entry(access));
        },
      };
      if (Number.isFinite(maxWaitMs)) {
        timer = setTimeout(
          () => {
            const index = this.#waiting.indexOf(waiting);
            if (index === -1) return;
            this.#waiting.splice(index, 1);
            reject(new QueueTimeoutError(performance.now() - startedAt));
            this.#admit();
          },
          Math.max(0, maxWaitMs),
        );
        timer.unref();
      }
      this.#waiting.push(waiting);
      this.#admit();
    });
  }

  #entry(access: GateAccess): GateEntry {
    const ahead = Promise.all(this.#holders).then(() => undefined);
    let left: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (left = resolve));
    this.#holders.add(gone);
    if (access === 'alone') this.#alone = true;
    let done = false;
    const leave = () => {
      if (done) return;
      done = true;
      this.#holders.delete(gone);
      left();
      if (access === 'alone') this.#alone = false;
      this.#admit();
    };
    return { leave, ahead };
  }

  #admit(): void {
    for (;;) {
      const next = this.#waiting[0];
      if (!next || this.#alone) return;
      if (next.access !== 'shared' && this.#holders.size > 0) return;
      this.#waiting.shift();
      next.grant();
    }
  }
}

export interface GateEntry {
  /** Leaves the gate (once; later calls do nothing). */
  leave: () => void;
  /** Resolves when every holder admitted before this one has left. */
  ahead: Promise<void>;
}
