import type { ApiSettings } from '../config.ts';
import { RestError } from './errors.ts';
import type { SelectItem } from './query-types.ts';

/**
 * Deepest nesting of brackets accepted in a JSON body or a filter value. Postgres parses these
 * recursively, and embedded Postgres (WebAssembly) has a small stack: very deep input can take
 * the whole database down instead of raising "stack depth limit exceeded".
 */
export const MAX_NESTING = 100;

/** The deepest nesting of `[`, `{` and `(` in `text`, counting outside JSON strings only when `json`. */
export function nestingDepth(text: string, json = false): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charCodeAt(i);
    if (json && inString) {
      if (ch === 92)
        i += 1; // backslash: skip the escaped character
      else if (ch === 34) inString = false;
      continue;
    }
    if (json && ch === 34) inString = true;
    else if (ch === 91 || ch === 123 || ch === 40) {
      depth += 1;
      if (depth > max) max = depth;
    } else if (ch === 93 || ch === 125 || ch === 41) depth = Math.max(0, depth - 1);
  }
  return max;
}

/** Refuses a value nested deeper than `MAX_NESTING` (see there). */
export function checkNesting(text: string, what: string, json = false): void {
  if (nestingDepth(text, json) > MAX_NESTING) {
    throw new RestError(
      400,
      json ? 'PGRST102' : 'PGRST100',
      `${what} is nested deeper than ${MAX_NESTING} levels`,
    );
  }
}

/**
 * 400 for embeds nested deeper than `limit`: each level is a nested subquery whose rows
 * multiply the rows of the levels above it. The code is Postgres' "program limit exceeded",
 * as for the other limits of a request's size.
 */
export function embedsTooDeep(limit: number): RestError {
  return new RestError(400, '54000', `Embedded resources are nested deeper than ${limit} levels`, {
    details: 'Split the request, or embed fewer levels.',
  });
}

function selectShape(items: SelectItem[], depth: number): { count: number; depth: number } {
  let count = 0;
  let deepest = depth;
  for (const item of items) {
    count += 1;
    if (item.kind !== 'embed') continue;
    const inner = selectShape(item.children, depth + 1);
    count += inner.count;
    deepest = Math.max(deepest, inner.depth);
  }
  return { count, depth: deepest };
}

/**
 * Refuses a `select=` that is deeper or longer than the installation allows
 * (`steward.toml` `[api] max_embed_depth` and `max_select_items`), before anything is planned:
 * Postgres' own limit on a select list (1,664 entries, 54011) would otherwise surface as a 500.
 */
export function checkSelectBounds(select: SelectItem[], limits: ApiSettings): void {
  const shape = selectShape(select, 0);
  if (shape.depth > limits.maxEmbedDepth) throw embedsTooDeep(limits.maxEmbedDepth);
  if (shape.count > limits.maxSelectItems) {
    throw new RestError(
      400,
      '54011',
      `The select list has ${shape.count} items, more than the ${limits.maxSelectItems} allowed`,
      { details: 'Ask for fewer columns, or use * for all of them.' },
    );
  }
}
