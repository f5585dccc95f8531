import { RestError } from './errors.ts';
import type { ParsedQuery } from './query-types.ts';

// PostgREST reads `Range: <first>-[<last>]` (with `Range-Unit: items`); anything else is ignored.
const RANGE = /^(\d{1,15})-(\d{0,15})$/;

/**
 * Applies the `Range` request header of a read to the root's `limit`/`offset`, as PostgREST does:
 * the rows asked for are the intersection of the header's range and the query string's. A first
 * row past the last is 416 PGRST103.
 */
export function applyRangeHeader(query: ParsedQuery, header: string | null): void {
  const match = header === null ? null : RANGE.exec(header.trim());
  if (!match) return;
  const first = Number(match[1]);
  const last = match[2] === '' ? Infinity : Number(match[2]);
  if (first > last) {
    throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', {
      details:
        'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
    });
  }
  let root = query.ranges.find((range) => range.path.length === 0);
  if (!root) {
    root = { path: [], value: {} };
    query.ranges.push(root);
  }
  const offset = root.value.offset ?? 0;
  const end = root.value.limit === undefined ? Infinity : offset + root.value.limit - 1;
  const lower = Math.max(first, offset);
  const upper = Math.min(last, end);
  if (lower > 0) root.value.offset = lower;
  if (upper !== Infinity) root.value.limit = Math.max(0, upper - lower + 1);
}
