import { randomBytes } from 'node:crypto';
import type { CpuPool } from '../workers/cpu-pool.ts';

/** GoTrue's bcrypt cost. */
export const DEFAULT_BCRYPT_COST = 10;

/**
 * Hashes a password with bcrypt in the CPU pool, off the thread that answers HTTP. The cost is
 * stored in the hash, so hashes made with another cost keep verifying.
 */
export function hashPassword(
  cpu: CpuPool,
  password: string,
  cost = DEFAULT_BCRYPT_COST,
): Promise<string> {
  return cpu.run('hashPassword', { password, cost });
}

// A hash of a random password nobody knows, compared against when there is no user (or no
// password) to check, so that "unknown e-mail" takes as long as "wrong password" and the
// answer time does not reveal which addresses have accounts.
// One decoy per cost, made with the cost real hashes get, so both take the same time.
const decoyHashes = new Map<number, Promise<string>>();
let decoyCost = DEFAULT_BCRYPT_COST;
function decoy(cpu: CpuPool): Promise<string> {
  let hash = decoyHashes.get(decoyCost);
  if (!hash) {
    const cost = decoyCost;
    hash = hashPassword(cpu, randomBytes(18).toString('base64'), cost);
    decoyHashes.set(cost, hash);
    hash.catch(() => decoyHashes.delete(cost));
  }
  return hash;
}

/**
 * Makes the decoy hash, with the cost new hashes get, ahead of the first sign-in, so that one is
 * not slower either.
 */
export function preparePasswordChecks(cpu: CpuPool, cost = DEFAULT_BCRYPT_COST): void {
  decoyCost = cost;
  decoy(cpu).catch(() => undefined);
}

/**
 * Checks `password` against a stored bcrypt hash, in the CPU pool. With no hash it still spends
 * the time of a real comparison and answers `false`.
 */
export async function verifyPassword(
  cpu: CpuPool,
  password: string,
  hash: string | null | undefined,
): Promise<boolean> {
  if (!hash) {
    await cpu.run('comparePassword', { password, hash: await decoy(cpu) });
    return false;
  }
  return cpu.run('comparePassword', { password, hash });
}
