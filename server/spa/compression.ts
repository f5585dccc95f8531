import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = 'br' | 'gzip';

/** Text formats worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|manifest\+json)|image\/svg\+xml)/;

/** The best encoding the client accepts for `contentType`, or none. */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  contentType: string,
): Encoding | null {
  if (!acceptEncoding || !COMPRESSIBLE.test(contentType)) return null;
  const accepted = acceptEncoding
    .toLowerCase()
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
    .map(([name]) => name);
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return null;
}

const MAX_ENTRIES = 300;
const cache = new Map<string, Promise<Buffer>>();

/**
 * The file's bytes compressed with `encoding`, made once per file version (path, size and
 * modification time) and kept in memory: the built app is a few hundred KB, and compressing on
 * every request would cost more than sending it.
 */
export function compressedFile(file: string, version: string, encoding: Encoding): Promise<Buffer> {
  const key = `${encoding}:${file}:${version}`;
  let entry = cache.get(key);
  if (!entry) {
    entry = readFile(file).then((bytes) =>
      encoding === 'br'
        ? brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
        : gzipAsync(bytes, { level: 9 }),
    );
    entry.catch(() => cache.delete(key));
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, entry);
  }
  return entry;
}
