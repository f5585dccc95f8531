/**
 * Which relations of the exposed schema may answer differently as time passes, with no write in
 * between: views and policies that read the clock themselves (`now()`, `current_date`, …), or
 * through functions that do, at any depth, or through other such views. PGlite's read cache
 * (`read-cache.ts`) must never answer them from a copy: a row of a view `where expires_at >
 * now()` would outlive its expiry by up to the cache's lifetime, which PostgREST never does.
 *
 * Matching is by name in the source text, so it errs towards "reads the clock" (a column or
 * function that merely shares a name costs a cache miss, never a stale answer).
 */

/** The clock as SQL and PL/pgSQL write it. */
const CLOCK =
  /\b(now|clock_timestamp|statement_timestamp|transaction_timestamp|timeofday)\s*\(|\b(current_date|current_timestamp|current_time|localtime|localtimestamp)\b/i;

export interface ClockSource {
  kind: 'function' | 'relation';
  name: string;
  source: string;
}

/** One pattern for a set of names, each as a whole word; null for none. */
const wordsOf = (names: Set<string>): RegExp | null =>
  names.size === 0
    ? null
    : new RegExp(`\\b(${[...names].map((n) => n.replace(/[^\w$]/g, '')).join('|')})\\b`, 'i');

/** The names of the relations whose reads may depend on the clock. */
export function clockReaders(sources: ClockSource[]): Set<string> {
  const functions = sources.filter((s) => s.kind === 'function');
  const relations = sources.filter((s) => s.kind === 'relation');
  const clockFunctions = new Set(functions.filter((f) => CLOCK.test(f.source)).map((f) => f.name));
  const readers = new Set<string>();
  // Until nothing new is found: a function calling a clock function reads the clock, and so
  // does a view over a view that does.
  for (let changed = true; changed;) {
    changed = false;
    const callsClock = wordsOf(clockFunctions);
    for (const f of functions) {
      if (!clockFunctions.has(f.name) && callsClock?.test(f.source)) {
        clockFunctions.add(f.name);
        changed = true;
      }
    }
    const readsClock = wordsOf(new Set([...clockFunctions, ...readers]));
    for (const r of relations) {
      if (readers.has(r.name)) continue;
      if (CLOCK.test(r.source) || readsClock?.test(r.source)) {
        readers.add(r.name);
        changed = true;
      }
    }
  }
  return readers;
}
