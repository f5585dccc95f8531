import type { Context } from 'hono';
import { AuthError, badRequest } from './errors.ts';

export type JsonObject = Record<string, unknown>;

const badJson = (reason: string) =>
  badRequest('bad_json', `Could not parse request body as JSON: ${reason}`);

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The request body as a JSON object. Anything else (empty, not JSON, an array) is GoTrue's
 * 400 `bad_json`, never an exception that would become a 500.
 */
export async function readJsonObject(c: Context): Promise<JsonObject> {
  const text = await c.req.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badJson((error as Error).message);
  }
  if (!isJsonObject(value)) throw badJson('the body must be a JSON object');
  return value;
}

/** A string field; absent and `null` read as `''`, as Go's decoder leaves a missing string. */
export function stringField(body: JsonObject, name: string): string {
  const value = body[name];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw badJson(`"${name}" must be a string`);
  return value;
}

/** A string field that may be absent (`undefined`), where absent and empty mean different things. */
export function optionalStringField(body: JsonObject, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badJson(`"${name}" must be a string`);
  return value;
}

/** An object field such as `data` or `user_metadata`; absent and `null` read as `undefined`. */
export function objectField(body: JsonObject, name: string): JsonObject | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) throw badJson(`"${name}" must be an object`);
  return value;
}

export function booleanField(body: JsonObject, name: string): boolean {
  const value = body[name];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw badJson(`"${name}" must be a boolean`);
  return value;
}

// The WHATWG "valid e-mail address" pattern, which GoTrue's checkmail.ValidateFormat applies.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Validates an e-mail address as GoTrue does and returns it lower-cased. */
export function validateEmail(email: string): string {
  if (email === '') throw badRequest('validation_failed', 'An email address is required');
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_PATTERN.test(email)) {
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  }
  return email.toLowerCase();
}

/** bcrypt uses only the first 72 bytes of a password; GoTrue refuses longer ones. */
export const MAX_PASSWORD_LENGTH = 72;
/** GoTrue's default minimum password length. */
export const MIN_PASSWORD_LENGTH = 6;

const tooLong = () =>
  badRequest(
    'validation_failed',
    `Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`,
  );

/** The weak-password error GoTrue gives: 422 with `weak_password.reasons`. */
export function weakPasswordError(reasons: string[], message: string): AuthError {
  return new AuthError(422, 'weak_password', message, { weak_password: { reasons } });
}

/**
 * Refuses a password bcrypt would silently truncate (400) or one shorter than the policy (422
 * `weak_password`). Lengths are counted in UTF-8 bytes, as Go's `len` and bcrypt count them.
 */
export function checkPasswordStrength(password: string): void {
  if (passwordTooLong(password)) throw tooLong();
  const weakness = passwordWeakness(password);
  if (weakness) throw weakPasswordError(weakness.reasons, weakness.message);
}

export function passwordTooLong(password: string): boolean {
  return Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_LENGTH;
}

/** Why a password falls short of the policy, or `null` when it does not. */
export function passwordWeakness(password: string): { reasons: string[]; message: string } | null {
  if (Buffer.byteLength(password, 'utf8') >= MIN_PASSWORD_LENGTH) return null;
  return {
    reasons: ['length'],
    message: `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`,
  };
}

/** Throws a password that is too long as GoTrue's 400 (for admin-created users, no policy). */
export function checkPasswordLength(password: string): void {
  if (passwordTooLong(password)) throw tooLong();
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID_PATTERN.test(value);
