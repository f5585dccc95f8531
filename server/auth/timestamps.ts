/**
 * A timestamp as Go's `time.Time` prints it in JSON (RFC 3339 in UTC, no trailing zeros), made
 * by Postgres so that neither the server's time zone nor the driver changes it.
 */
export const rfc3339 = (column: string, alias: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ${alias}`;

/** Go leaves trailing zeros out of the fraction (and the fraction out when it is zero). */
export function trimFraction(value: string | null): string | null {
  if (value === null) return null;
  return value.replace(/(\.\d*?)0+Z$/, '$1Z').replace(/\.Z$/, 'Z');
}
