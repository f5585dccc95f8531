import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const SECRET_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * A 256-bit secret for an edge function, kept in `{dataDir}/function-secrets/{name}` (readable
 * by the owner only) and generated on first use, so it survives restarts as a hosted project's
 * secrets do. Returned base64url-encoded (43 characters; decode to 32 bytes for a raw key).
 */
export async function functionSecret(dataDir: string, name: string): Promise<string> {
  if (!SECRET_NAME.test(name)) throw new Error(`invalid function secret name: ${name}`);
  const dir = path.join(dataDir, 'function-secrets');
  const file = path.join(dir, name);
  const existing = await readSecret(file);
  if (existing) return existing;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  try {
    // 'wx' fails when another process made the file meanwhile; theirs is then the secret.
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(file, 0o600); // the mode above is filtered by the umask
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const theirs = await readSecret(file);
    if (!theirs) throw new Error(`function secret ${file} is empty`);
    return theirs;
  }
}

async function readSecret(file: string): Promise<string | null> {
  try {
    const value = (await readFile(file, 'utf8')).trim();
    return value === '' ? null : value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
