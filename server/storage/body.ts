import { StorageError, storageErrors } from './errors.ts';

/** A request body that ended early or broke off: the client went away. */
export const requestAborted = () =>
  new StorageError(499, 'Aborted', 'Request aborted', 'Request aborted');

/**
 * The chunks of a request body as Buffers. A body that breaks off (the client disconnected)
 * ends in `Aborted`, never in an unexplained error; so does one shorter than its
 * `Content-Length`.
 */
export async function* bodyChunks(
  body: ReadableStream<Uint8Array> | null,
  declaredLength?: number,
): AsyncGenerator<Buffer> {
  if (!body) {
    if (declaredLength) throw requestAborted();
    return;
  }
  const reader = body.getReader();
  let received = 0;
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch {
        throw requestAborted();
      }
      if (result.done) break;
      received += result.value.byteLength;
      yield Buffer.from(result.value.buffer, result.value.byteOffset, result.value.byteLength);
    }
  } finally {
    // Unread data is left for the HTTP server to drain; cancelling would cut the connection
    // before the error response could be sent.
    reader.releaseLock();
  }
  if (declaredLength !== undefined && received < declaredLength) throw requestAborted();
}

/** The `Content-Length` a request declares, when it is a plain non-negative integer. */
export function declaredLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  if (value === null || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** Largest JSON body the object and bucket API accept (lists of paths included). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * Reads a JSON object body of at most `MAX_JSON_BODY_BYTES`. A missing body reads as `{}`;
 * anything else that is not a JSON object is `InvalidRequest`.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const length = declaredLength(request.headers);
  if (length !== undefined && length > MAX_JSON_BODY_BYTES) {
    throw storageErrors.entityTooLarge('request body');
  }
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of bodyChunks(request.body, length)) {
    size += chunk.byteLength;
    if (size > MAX_JSON_BODY_BYTES) throw storageErrors.entityTooLarge('request body');
    parts.push(chunk);
  }
  const text = Buffer.concat(parts).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw storageErrors.invalidRequest('Body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw storageErrors.invalidRequest('body must be object');
  }
  return value as Record<string, unknown>;
}
