import { RestError } from './errors.ts';
import type { Preferences } from './preferences.ts';

/** The row every generated statement returns. */
export interface ResultRow {
  /** Total rows matched, when a count was requested (bigint as text). */
  total: string | number | null;
  /** Rows in the response. */
  page: number;
  /** Its JSON or CSV as UTF-8, sent as it is (`execute` has the driver hand it over as bytes). */
  body: Uint8Array | null;
  inserted?: number | null;
}

/** `Content-Range` as PostgREST writes it: `0-9/57`, `*\/0`, `*\/*`. */
export function contentRange(lower: number, upper: number, total: number | null): string {
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${total === null ? '*' : total}`;
}

/** Status and `Content-Range` of a read: 206 when a count shows more rows, 416 past the end. */
export function rangeStatus(
  offset: number,
  page: number,
  total: number | null,
): { status: number; range: string } {
  const upper = offset + page - 1;
  let status = 200;
  if (total !== null) {
    if (offset > total) status = 416;
    else if (page < total) status = 206;
  }
  return { status, range: contentRange(offset, upper, total) };
}

export const totalOf = (row: ResultRow): number | null =>
  row.total === null ? null : Number(row.total);

/** The `.single()` check: anything but exactly one row is 406 PGRST116 (and rolls back). */
export function assertSingle(page: number): void {
  if (page !== 1) {
    throw new RestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', {
      details: `The result contains ${page} rows`,
    });
  }
}

/**
 * `Prefer: handling=strict, max-affected=n`: more than `n` rows changed (or returned by a
 * function) is 400 PGRST124, thrown while the transaction is open so it rolls back.
 */
export function assertMaxAffected(prefs: Preferences, affected: number): void {
  const max = prefs.maxAffected;
  if (prefs.handling === 'strict' && max !== undefined && affected > max) {
    throw new RestError(
      400,
      'PGRST124',
      'Query result exceeds max-affected preference constraint',
      {
        details: `The query affects ${affected} rows`,
      },
    );
  }
}

/**
 * How many rows (`page`) a write's answer may have for `assertSingle` (when `single`) and
 * `assertMaxAffected` (when `limitsAffected`) to accept it: outside these bounds the write is
 * refused, inside them nothing else refuses it, so the database may commit it with its
 * statement (`Prepared.acceptedPages`).
 */
export function acceptedPages(
  prefs: Preferences,
  checks: { single: boolean; limitsAffected: boolean },
): { min: number; max: number } {
  let max = checks.single ? 1 : Infinity;
  if (checks.limitsAffected && prefs.handling === 'strict' && prefs.maxAffected !== undefined) {
    max = Math.min(max, prefs.maxAffected);
  }
  return { min: checks.single ? 1 : 0, max };
}

/** What `reply` made a response of: the read cache keeps these instead of reading the body back. */
export interface ReplyParts {
  status: number;
  body: string | Uint8Array | null;
  headers: Headers;
}

const replies = new WeakMap<Response, ReplyParts>();

/** The parts `reply` made `response` of; undefined for any other response. */
export const replyParts = (response: Response): ReplyParts | undefined => replies.get(response);

/** Builds a response; `null` values in `headers` are left out. */
export function reply(
  status: number,
  body: string | Uint8Array | null,
  headers: Record<string, string | null>,
): Response {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) if (value !== null) out.set(name, value);
  const sent = status === 204 ? null : body;
  const response = new Response(sent as BodyInit | null, { status, headers: out });
  replies.set(response, { status, body: sent, headers: out });
  return response;
}
