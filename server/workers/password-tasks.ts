import bcrypt from 'bcryptjs';

/*
 * bcrypt for the auth service, run in the CPU pool's threads: one hash at GoTrue's cost of 10
 * is about 100 ms of CPU in JavaScript, which on the thread that answers HTTP would hold up
 * every other request (issue 11, F2: 40 sign-ups made `/config.json` wait 3.7 s).
 */

export interface HashPasswordArgs {
  password: string;
  cost: number;
}

/** A bcrypt hash of `password` with `cost` rounds (the cost is stored in the hash). */
export function hashPassword({ password, cost }: HashPasswordArgs): string {
  return bcrypt.hashSync(password, cost);
}

export interface ComparePasswordArgs {
  password: string;
  hash: string;
}

/** Whether `password` matches the bcrypt `hash`; a hash that is not bcrypt never matches. */
export function comparePassword({ password, hash }: ComparePasswordArgs): boolean {
  try {
    return bcrypt.compareSync(password, hash);
  } catch {
    return false;
  }
}
