/**
 * Which relations may answer a read differently with no write in between, so that PGlite's
 * read cache (`read-cache.ts`) never answers them from a copy (a row of a view `where
 * expires_at > now()` would outlive its expiry by up to the cache's lifetime; a view over
 * `random()` would repeat its draw; PostgREST does neither):
 *
 * - the clock: `now()`, `current_date`, … and the few other system functions whose result moves
 *   without a write (transaction ids, statistics);
 * - every volatile function of the system schemas (`random()`, `nextval()`, `gen_random_uuid()`,
 *   `pg_database_size()`, …), and volatile functions of other schemas whose body cannot be read
 *   (C, internal);
 * - functions that call any of these, at any depth, and views and policies that call such a
 *   function, read the clock, or read a relation that does (including tables of other schemas
 *   that a view or a policy reads).
 *
 * The volatility a function of ours is declared with is not used: a policy helper declared
 * `volatile` (the default) that only reads tables answers the same until a write. Matching is
 * by name in the source text, so it errs towards "unrepeatable" (a column or a function that
 * merely shares a name costs a cache miss, never a stale answer).
 *
 * What a request adds itself (a filter value `now`, a cast in `select`) is checked per request:
 * `cacheable-read.ts`.
 */

/** The clock as SQL and PL/pgSQL write it, and system functions that move without a write. */
const ALWAYS_UNREPEATABLE =
  /\b(now|clock_timestamp|statement_timestamp|transaction_timestamp|timeofday|txid_current\w*|txid_snapshot\w*|pg_current_xact_id\w*|pg_current_snapshot|pg_postmaster_start_time|pg_conf_load_time)\s*\(|\b(current_date|current_timestamp|current_time|localtime|localtimestamp)\b|\bpg_stat(io)?_\w+/i;

export interface ReadSource {
  /**
   * `function`: a function with a readable body; `opaque`: a volatile function whose body is
   * not SQL (C, internal), including every volatile function of the system schemas;
   * `relation`: a view's definition or the expressions of a table's policies.
   */
  kind: 'function' | 'opaque' | 'relation';
  /** The function's or the relation's schema. */
  schema: string;
  name: string;
  source: string;
}

const escaped = (names: Set<string>) => [...names].map((n) => n.replace(/[^\w$]/g, ''));

/** A call of any of `names` (`name(` or `name (`); null for none. */
const callsOf = (names: Set<string>): RegExp | null =>
  names.size === 0 ? null : new RegExp(`\\b(${escaped(names).join('|')})\\s*\\(`, 'i');

/** Any of `names` as a whole word; null for none. */
const wordsOf = (names: Set<string>): RegExp | null =>
  names.size === 0 ? null : new RegExp(`\\b(${escaped(names).join('|')})\\b`, 'i');

/**
 * The function that keeps the caller's context for the statement's snapshot, for the policy
 * helpers that call it (private.caller_context in
 * supabase/schemas/01_organizations_and_profiles.sql): in its body `pg_current_snapshot()` is
 * the kept context's key and `set_config()` its store, so its answer is what the tables and the
 * claims say, as repeatable as a read of the tables. Only those two calls are overlooked, and
 * only in this function named with its schema: a function of the same name in another schema
 * (a tenant's, say) is matched as usual. Anything else it calls is matched as usual too.
 */
const CALLER_CONTEXT_FUNCTION = 'private.caller_context';
const CALLER_CONTEXT_CACHE = /\b(pg_current_snapshot|set_config)\s*\(/gi;

/** The names of the relations whose reads may change with no write in between. */
export function unrepeatableRelations(read: ReadSource[]): Set<string> {
  const sources = read.map((s) =>
    s.kind === 'function' && `${s.schema}.${s.name}` === CALLER_CONTEXT_FUNCTION
      ? { ...s, source: s.source.replace(CALLER_CONTEXT_CACHE, '(') }
      : s,
  );
  const functions = sources.filter((s) => s.kind === 'function');
  const relations = sources.filter((s) => s.kind === 'relation');
  const unrepeatableFunctions = new Set(
    sources
      .filter(
        (s) => s.kind === 'opaque' || (s.kind === 'function' && ALWAYS_UNREPEATABLE.test(s.source)),
      )
      .map((s) => s.name),
  );
  const readers = new Set<string>();
  // Until nothing new is found: a function calling an unrepeatable function is one, and so is
  // a view over a view that is.
  for (let changed = true; changed;) {
    changed = false;
    const calls = callsOf(unrepeatableFunctions);
    for (const f of functions) {
      if (!unrepeatableFunctions.has(f.name) && calls?.test(f.source)) {
        unrepeatableFunctions.add(f.name);
        changed = true;
      }
    }
    const reads = wordsOf(readers);
    for (const r of relations) {
      if (readers.has(r.name)) continue;
      if (ALWAYS_UNREPEATABLE.test(r.source) || calls?.test(r.source) || reads?.test(r.source)) {
        readers.add(r.name);
        changed = true;
      }
    }
  }
  return readers;
}
