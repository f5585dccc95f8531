import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { signJwt } from './jwt.ts';

export interface ApiKeys {
  jwtSecret: string;
  /** Public key for the browser: a JWT with role `anon`. */
  anonKey: string;
  /** Key that bypasses row-level security; never sent to a browser. */
  serviceRoleKey: string;
}

// Fixed issue and expiry times make the keys a pure function of the secret, so they stay the
// same across restarts, as a Supabase project's keys do.
const ISSUED_AT = 1735689600; // 2025-01-01
const EXPIRES_AT = 2051222400; // 2035-01-01

export function deriveKeys(jwtSecret: string): ApiKeys {
  const key = (role: string) =>
    signJwt({ iss: 'supabase', role, iat: ISSUED_AT, exp: EXPIRES_AT }, jwtSecret);
  return { jwtSecret, anonKey: key('anon'), serviceRoleKey: key('service_role') };
}

/**
 * The JWT secret: `JWT_SECRET` when set, else the one kept in `dataDir/jwt-secret`, generated
 * (256 random bits, readable by the owner only) on the first start.
 */
export async function loadJwtSecret(dataDir: string, fromEnv?: string): Promise<string> {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  // 'wx' fails if another process created the file meanwhile; then read theirs.
  try {
    await writeFile(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readFile(file, 'utf8')).trim();
  }
}
