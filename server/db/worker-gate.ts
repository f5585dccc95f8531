import { QueueTimeoutError } from './fair-queue.ts';

/**
 * Who may send to the PGlite worker now. A read-only batch is one message, complete when the
 * worker answers it, so such reads may share the gate and wait in the worker's own queue: it
 * starts the next as soon as it has answered one, instead of idling while the thread that
 * serves HTTP receives the answer and sends the next. Anything else has the gate alone: a
 * transaction or a writing batch keeps a transaction open between its messages, and a write
 * must not be left to run after its caller was told the database was busy. Entries are granted
 * in the order they came.
 */
export class WorkerGate {
  #shared = 0;
  #exclusive = false;
  readonly #waiting: { exclusive: boolean; grant: () => void }[] = [];
  /** When each holder leaves. */
  readonly #holders = new Set<Promise<void>>();

  /**
   * Resolves once `exclusive` (or shared) work may send, with `leave` and `ahead`: when the work
   * granted before it has left, so that the worker has reached this work's first message.
   * Rejects with `QueueTimeoutError` when that has not happened within `maxWaitMs`.
   */
  enter(exclusive: boolean, maxWaitMs = Infinity): Promise<GateEntry> {
    return new Promise((resolve, reject) => {
      const startedAt = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const waiting = {
        exclusive,
        grant: () => {
          clearTimeout(timer);
          resolve(this.#entry(exclusive));
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

  #entry(exclusive: boolean): GateEntry {
    const ahead = Promise.all(this.#holders).then(() => undefined);
    let left: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (left = resolve));
    this.#holders.add(gone);
    let done = false;
    const leave = () => {
      if (done) return;
      done = true;
      this.#holders.delete(gone);
      left();
      if (exclusive) this.#exclusive = false;
      else this.#shared -= 1;
      this.#admit();
    };
    return { leave, ahead };
  }

  #admit(): void {
    for (;;) {
      const next = this.#waiting[0];
      if (!next || this.#exclusive) return;
      if (next.exclusive) {
        if (this.#shared > 0) return;
        this.#exclusive = true;
      } else {
        this.#shared += 1;
      }
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
