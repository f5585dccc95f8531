import { RestError, invalidBody } from './errors.ts';
import { checkNesting } from './limits.ts';

/** Largest request body accepted: 10 MiB (Supabase's gateway has a similar limit). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

const tooLarge = () =>
  new RestError(413, 'PGRST413', 'Request body is larger than 10 MiB', {
    details: `The limit is ${MAX_BODY_BYTES} bytes.`,
  });

/** Reads the request body as UTF-8 text, refusing more than `MAX_BODY_BYTES` (413). */
export async function readBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
      Buffer.concat(chunks),
    );
  } catch {
    throw invalidBody('Empty or invalid json');
  }
}

/** A JSON request body, checked and summarised; its text is passed to Postgres unchanged. */
export interface Payload {
  json: string;
  isArray: boolean;
  /** Keys of the object, or of the objects of the array (all the same unless `columns` is given). */
  keys: string[];
}

/**
 * Parses a JSON body as PostgREST does: an object, or an array of objects with the same keys
 * (unless `columns=` says which keys to use); any other JSON value counts as an empty array.
 */
export function parsePayload(text: string, options: { uniformKeys: boolean }): Payload {
  checkNesting(text, 'The JSON body', true);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidBody('Empty or invalid json');
  }
  if (Array.isArray(value)) {
    const first = value[0];
    if (first === undefined) return { json: '[]', isArray: true, keys: [] };
    const isObject = (v: unknown): v is Record<string, unknown> =>
      typeof v === 'object' && v !== null && !Array.isArray(v);
    if (!value.every(isObject)) throw invalidBody('All object keys must match');
    const keys = Object.keys(first);
    if (options.uniformKeys) {
      const sorted = [...keys].sort().join('\u0000');
      if (!value.every((item) => Object.keys(item).sort().join('\u0000') === sorted)) {
        throw invalidBody('All object keys must match');
      }
    }
    return { json: text, isArray: true, keys };
  }
  if (typeof value === 'object' && value !== null) {
    return { json: text, isArray: false, keys: Object.keys(value) };
  }
  return { json: '[]', isArray: true, keys: [] };
}
