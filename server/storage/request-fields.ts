import { storageErrors } from './errors.ts';
import { validObjectName } from './names.ts';

const MAX_PATHS_PER_REQUEST = 1000;

/** A list of names in a JSON body: 1 to 1000 strings. */
export function stringList(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw storageErrors.invalidRequest(`body/${field} must be array of strings`);
  }
  if (value.length === 0) {
    throw storageErrors.invalidRequest(`body/${field} must NOT have fewer than 1 items`);
  }
  if (value.length > MAX_PATHS_PER_REQUEST) {
    throw storageErrors.invalidRequest(
      `Bulk object requests are limited to ${MAX_PATHS_PER_REQUEST} objects per request.`,
    );
  }
  return value as string[];
}

/** A required string property of a JSON body. */
export function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string') {
    throw storageErrors.invalidRequest(`body must have required property '${field}'`);
  }
  return value;
}

/** A name that could never have been stored matches nothing (lists of names to look up). */
export function storableName(name: string): string | null {
  try {
    return validObjectName(name);
  } catch {
    return null;
  }
}
