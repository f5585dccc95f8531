import bcrypt from 'bcryptjs';
import { randomBytes } from 'node:crypto';

/** GoTrue's bcrypt cost. */
export const DEFAULT_BCRYPT_COST = 10;

/**
 * Hashes a password with bcrypt. The asynchronous form yields to the event loop between rounds,
 * so one sign-up does not stall every other request for the ~100 ms the hash takes. The cost is
 * stored in the hash, so hashes made with another cost keep verifying.
 */
export function hashPassword(password: string, cost = DEFAULT_BCRYPT_COST): Promise<string> {
  return bcrypt.hash(password, cost);
}

// A hash of a random password nobody knows, compared against when there is no user (or no
// password) to check, so that "unknown e-mail" takes as long as "wrong password" and the
// answer time does not reveal which addresses have accounts.
// One decoy per cost, made with the cost real hashes get, so both take the same time.
const decoyHashes = new Map<number, Promise<string>>();
let decoyCost = DEFAULT_BCRYPT_COST;
function decoy(): Promise<string> {
  let hash = decoyHashes.get(decoyCost);
  if (!hash) {
    hash = hashPassword(randomBytes(18).toString('base64'), decoyCost);
    decoyHashes.set(decoyCost, hash);
    hash.catch(() => decoyHashes.delete(decoyCost));
  }
  return hash;
}

/**
 * Makes the decoy hash, with the cost new hashes get, ahead of the first sign-in, so that one is
 * not slower either.
 */
export function preparePasswordChecks(cost = DEFAULT_BCRYPT_COST): void {
  decoyCost = cost;
  decoy().catch(() => undefined);
}

/**
 * Checks `password` against a stored bcrypt hash. With no hash it still spends the time of a
 * real comparison and answers `false`.
 */
export async function verifyPassword(
  password: string,
  hash: string | null | undefined,
): Promise<boolean> {
  if (!hash) {
    await bcrypt.compare(password, await decoy());
    return false;
  }
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    // Not a bcrypt hash (e.g. imported from elsewhere): it cannot match.
    return false;
  }
}
