import { randomBytes } from 'node:crypto';
import { SERVER_LANE } from '../db/request-scope.ts';
import type { CpuPool } from '../workers/cpu-pool.ts';

/** GoTrue's bcrypt cost. */
export const DEFAULT_BCRYPT_COST = 10;

/**
 * Hashes a password with bcrypt in the CPU pool, off the thread that answers HTTP, in the turn
 * of `lane` (the request's). The cost is
 * stored in the hash, so hashes made with another cost keep verifying.
 */
export function hashPassword(
  cpu: CpuPool,
  lane: string,
  password: string,
  cost = DEFAULT_BCRYPT_COST,
): Promise<string> {
  return cpu.run('hashPassword', { password, cost }, { lane });
}

// A hash of a random password nobody knows, compared against when there is no user (or no
// password) to check, so that "unknown e-mail" takes as long as "wrong password" and the
// answer time does not reveal which addresses have accounts.
// One decoy per cost, made with the cost real hashes get, so both take the same time.
const decoyHashes = new Map<number, Promise<string>>();
let decoyCost = DEFAULT_BCRYPT_COST;
function decoy(cpu: CpuPool, lane: string): Promise<string> {
  let hash = decoyHashes.get(decoyCost);
  if (!hash) {
    const cost = decoyCost;
    hash = hashPassword(cpu, lane, randomBytes(18).toString('base64'), cost);
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
  decoy(cpu, SERVER_LANE).catch(() => undefined);
}

/**
 * Checks `password` against a stored bcrypt hash, in the CPU pool. With no hash it still spends
 * the time of a real comparison and answers `false`.
 */
export async function verifyPassword(
  cpu: CpuPool,
  lane: string,
  password: string,
  hash: string | null | undefined,
): Promise<boolean> {
  if (!hash) {
    await cpu.run('comparePassword', { password, hash: await decoy(cpu, lane) }, { lane });
    return false;
  }
  return cpu.run('comparePassword', { password, hash }, { lane });
}
