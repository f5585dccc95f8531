import type { Context } from 'hono';
import type { ApiEnv } from '../http/api-env.ts';
import { bodyChunks } from '../storage/body.ts';
import { LinkError, linkErrors } from './errors.ts';

/** A link's token as the database makes them: 64 hexadecimal digits. */
const TOKEN = /^[0-9a-f]{64}$/;
/** Looked up instead of a malformed token, so that it takes the path of an unknown one. */
const NO_TOKEN = '0'.repeat(64);

/** The `:token` of a link route, or one that matches nothing. */
export function tokenParam(c: Context<ApiEnv>): string {
  const token = (c.req.param('token') ?? '').toLowerCase();
  return TOKEN.test(token) ? token : NO_TOKEN;
}

/** Largest JSON body the link services read (a password, a note, a date). */
const MAX_JSON_BYTES = 16 * 1024;

/** A JSON object body of at most 16 KiB; anything else is refused with a clear message. */
export async function readJsonBody(c: Context<ApiEnv>): Promise<Record<string, unknown>> {
  const length = Number(c.req.header('content-length') ?? 0);
  if (length > MAX_JSON_BYTES) throw linkErrors.invalid('The request is too large');
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    // Read as it arrives and stopped past the bound: a body without a length is no way around it.
    for await (const chunk of bodyChunks(c.req.raw.body)) {
      size += chunk.byteLength;
      if (size > MAX_JSON_BYTES) throw linkErrors.invalid('The request is too large');
      parts.push(chunk);
    }
  } catch (error) {
    if (error instanceof LinkError) throw error;
    throw linkErrors.aborted();
  }
  const text = new TextDecoder().decode(Buffer.concat(parts));
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw linkErrors.invalid('The request is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw linkErrors.invalid('The request must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** An optional string field: undefined when absent or null, else it must be a string. */
export function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw linkErrors.invalid(`${key} must be a string`);
  return value;
}
