/**
 * How a scope is shown on a connection card: its last path segment (spec §2), so
 * `https://www.googleapis.com/auth/drive.readonly` reads `drive.readonly` and `chat:write` stays
 * as it is.
 */
export function scopeLabel(scope: string): string {
  const trimmed = scope.replace(/\/+$/, '');
  const segment = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  return segment || scope;
}
