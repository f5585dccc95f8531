/**
 * Counts the moments at which data in the database may change, so that a remembered read can
 * tell whether it is still current (see server/rest/read-cache.ts). Only meaningful when this
 * process is the database's only writer: PGlite runs inside it and holds its data directory.
 *
 * Every database call that may write goes through `around`: the generation moves when it starts
 * and again when it ends, and `quiet` is false in between. A read remembered at generation g is
 * current while the generation is still g.
 */
export class WriteClock {
  #generation = 0;
  #inFlight = 0;

  get generation(): number {
    return this.#generation;
  }

  /** No call that may write is running. */
  get quiet(): boolean {
    return this.#inFlight === 0;
  }

  async around<T>(fn: () => Promise<T>): Promise<T> {
    this.#generation++;
    this.#inFlight++;
    try {
      return await fn();
    } finally {
      this.#inFlight--;
      this.#generation++;
    }
  }
}
