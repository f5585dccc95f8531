/**
 * The time background work reads. The server uses the system clock; tests of schedules and
 * reminders use a clock they move by hand, so "a week later" takes no time.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until it is moved. */
export class ManualClock implements Clock {
  #now: Date;

  constructor(start: Date | string = new Date()) {
    this.#now = new Date(start);
  }

  now(): Date {
    return new Date(this.#now);
  }

  set(to: Date | string): void {
    this.#now = new Date(to);
  }

  advance(milliseconds: number): void {
    this.#now = new Date(this.#now.getTime() + milliseconds);
  }
}
