import { RestError } from './errors.ts';

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
