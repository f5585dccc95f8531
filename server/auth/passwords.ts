import bcrypt from 'bcryptjs';
import { randomBytes } from 'node:crypto';

/** GoTrue's bcrypt cost. */
const BCRYPT_COST = 10;

/**
 * Hashes a password with bcrypt. The asynchronous form yields to the event loop between rounds,
 * so one sign-up does not stall every other request for the ~100 ms the hash takes.
 */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

// A hash of a random password nobody knows, compared against when there is no user (or no
// password) to check, so that "unknown e-mail" takes as long as "wrong password" and the
// answer time does not reveal which addresses have accounts.
let decoyHash: Promise<string> | undefined;
const decoy = () => (decoyHash ??= hashPassword(randomBytes(18).toString('base64')));

/** Makes the decoy hash ahead of the first sign-in, so that one is not slower either. */
export function preparePasswordChecks(): void {
  decoy().catch(() => (decoyHash = undefined));
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
