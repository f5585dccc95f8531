import { storageErrors } from './errors.ts';

// The options of bucket create and update requests, checked as the storage server checks them.

// The storage server's rule for allowed MIME types: type/subtype or type/*, optional charset.
const ALLOWED_MIME_TYPE =
  /^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+|\*)(;\s*charset=[a-zA-Z0-9-]+)?$|^\*\/\*$/;

/** `allowed_mime_types` of a bucket request: undefined (unchanged), null (any) or a list. */
export function allowedMimeTypes(value: unknown): string[] | null | undefined {
  if (value === undefined || value === null) return value;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw storageErrors.invalidRequest('body/allowed_mime_types must be array of strings');
  }
  const types = (value as string[]).filter((type) => type !== '');
  for (const type of types) {
    if (type.length > 1000 || !ALLOWED_MIME_TYPE.test(type)) {
      throw storageErrors.invalidMimeType(type.slice(0, 100));
    }
  }
  return types;
}

/** `20MB`, `30KB`, `3B`… as the storage server reads them (decimal units). */
function parseSize(value: string): number {
  const match = /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value.trim());
  if (!match) {
    throw storageErrors.invalidRequest(
      'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B',
    );
  }
  const units: Record<string, number> = { gb: 1e9, mb: 1e6, kb: 1e3, b: 1 };
  return Math.floor(Number(match[1]) * units[match[2]!.toLowerCase()]!);
}

/**
 * `file_size_limit` of a bucket request, in bytes: a number or `"20MB"`-style text, at most the
 * server-wide limit.
 */
export function fileSizeLimit(value: unknown, globalLimit: number): number | null | undefined {
  if (value === undefined || value === null) return value;
  let bytes: number;
  if (typeof value === 'number') bytes = value;
  else if (typeof value === 'string') bytes = parseSize(value);
  else throw storageErrors.invalidRequest('body/file_size_limit must be integer or string');
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw storageErrors.invalidRequest('body/file_size_limit must be a whole number of bytes');
  }
  if (bytes > globalLimit) throw storageErrors.entityTooLarge();
  return bytes;
}

export function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw storageErrors.invalidRequest(`body/${field} must be boolean`);
}
