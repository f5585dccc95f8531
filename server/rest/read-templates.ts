/**
 * A table read's statement planned once per shape of request, its filter values then bound
 * again for each request of that shape (PostgREST's prepared statements go further: it prepares
 * the whole statement per query shape in the database). A read that only differs from an
 * earlier one in the values of its plain filters (`?title=neq.x` after `?title=neq.y`: a list
 * searched as the user types, the pages of a feed by date) skipped nothing before: parsing,
 * planning and writing its SQL were 15 % of the main thread's busy time under the bench's
 * distinct read on PostgreSQL, and without them it spends a sixth less per read
 * (bench/RESULTS.md, `i10-pgread`).
 *
 * What makes a shape, and why it is enough: the statement of a table read depends on the
 * method, the table, the query string, the headers `routes.ts` reads for it (`Accept-Profile`,
 * `Prefer`, `Accept`, `Range`), the installation's API settings (one `ReadTemplates` per app)
 * and the schema cache (templates are kept per cache object; a reload makes a new one). Not on
 * the caller: row-level security and grants are the database's, run as the caller's role by
 * `execute`. The key holds all of these as they came, except the value of each filter of the
 * form `column=op.value` with `op` one of `eq`, `neq`, `gt`, `gte`, `lt`, `lte` on a column of
 * the table itself (no embed, no JSON path), which is bound as one parameter as it is
 * (sql-filter.ts). Values with brackets or NUL are kept in the key (the parser's nesting and NUL
 * checks read them), and a read whose `Prefer` names a time zone is never templated (its check
 * reads the database, and `execute` applies the zone).
 *
 * A template is made at a shape's second request (the first only notes the shape), and nothing
 * is taken on trust: it is made only when the request's plan and a second plan of the same
 * shape with other values (`\u0001<n>\u0001`) give the same SQL text, the same parameters but
 * for one slot per filter value, and that slot holds the value as sent; any other shape is
 * planned every time. Whether PGlite's read cache may keep the answer is worked out again from
 * each request's values (`now` reads the clock: cacheable-read.ts).
 */
import { isCacheableRead } from './cacheable-read.ts';
import type { PlannedRead } from './handle-read.ts';
import { planReadStatement, readResponse } from './handle-read.ts';
import type { Prepared, RestRequest } from './handler-types.ts';
import type { ReadNode } from './plan-types.ts';
import { namesTimezone } from './preferences.ts';
import { decode, isReservedParam, parseQuery } from './query-params.ts';
import { applyRangeHeader } from './range-header.ts';
import type { SchemaCache } from './schema-types.ts';

/**
 * Every request header `routes.ts` reads to plan a table read (`Content-Profile` is read for
 * writes only): all of them key a shape.
 */
export const SHAPE_HEADERS = ['accept-profile', 'prefer', 'accept', 'range'];

/** A plain column of the table (no embed path, no JSON path), and no reserved parameter. */
const PLAIN_COLUMN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Operators whose value is bound as one parameter as it is (sql-filter.ts `filterSql`). */
const BOUND_AS_IS = /^(eq|neq|gt|gte|lt|lte)\./;
/** What the parser reads in a value besides binding it: brackets (nesting) and NUL. */
const readByParser = (value: string) => /[()[\]{}]/.test(value) || value.includes('\u0000');
/** Where a value was in the key. */
const HOLE = '\u0000';

/** A request's shape: its key, its filter values in order, and the query to probe it with. */
export interface ReadShape {
  key: string;
  values: string[];
  /** The query string with each value replaced by its probe (`\u0001<n>\u0001`). */
  probeQuery: string;
}

const probeOf = (index: number) => `\u0001${index}\u0001`;
/** The index of probe `value`, else -1. */
function probeIndex(value: string): number {
  if (value.length < 3 || value[0] !== '\u0001' || value.at(-1) !== '\u0001') return -1;
  const digits = value.slice(1, -1);
  return /^\d+$/.test(digits) ? Number(digits) : -1;
}

/**
 * The shape of a table read (GET or HEAD), or null when it is not to be templated. Each part of
 * the key is written with its length, so no content can make two shapes one key.
 */
export function readShape(
  method: string,
  resource: string,
  rawQuery: string,
  headers: Pick<Headers, 'get'>,
): ReadShape | null {
  let key = `${method.length}:${method}${resource.length}:${resource}`;
  for (const name of SHAPE_HEADERS) {
    const value = headers.get(name);
    if (name === 'prefer' && namesTimezone(value)) return null;
    key += value === null ? '-' : `${value.length}:${value}`;
  }
  const values: string[] = [];
  let masked = '';
  let probeQuery = '';
  const parts = rawQuery === '' ? [] : rawQuery.split('&');
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index]!;
    const sep = index === 0 ? '' : '&';
    const eq = part.indexOf('=');
    const name = eq === -1 ? '' : part.slice(0, eq);
    const op = eq === -1 ? null : BOUND_AS_IS.exec(part.slice(eq + 1));
    if (op && PLAIN_COLUMN.test(name) && !isReservedParam(name)) {
      let value: string;
      try {
        value = decode(part.slice(eq + 1)).slice(op[0].length);
      } catch {
        return null; // the parser answers it
      }
      if (!readByParser(value)) {
        masked += `${sep}${name}=${op[0]}${HOLE}`;
        probeQuery += `${sep}${name}=${op[0]}${encodeURIComponent(probeOf(values.length))}`;
        values.push(value);
        continue;
      }
    }
    masked += `${sep}${part}`;
    probeQuery += `${sep}${part}`;
  }
  return { key: `${key}${masked.length}:${masked}`, values, probeQuery };
}

/** A shape's statement with its values' slots, and what its response is made from. */
interface Template {
  sql: string;
  params: readonly unknown[];
  /** The parameter each filter value of the shape is bound to, in the shape's order. */
  slots: number[];
  root: ReadNode;
  offset: number;
  head: boolean;
  request: Pick<RestRequest, 'media' | 'prefs' | 'profileNegotiated'>;
}

const isPrimitive = (value: unknown) =>
  value === null || (typeof value !== 'object' && typeof value !== 'function');

/** The template of two plans of one shape, or null when they differ in more than the values. */
function templateOf(
  request: RestRequest,
  real: PlannedRead,
  probed: PlannedRead,
  values: string[],
): Template | null {
  if (
    real.sql !== probed.sql ||
    real.params.length !== probed.params.length ||
    real.offset !== probed.offset ||
    real.head !== probed.head
  ) {
    return null;
  }
  const slots = values.map(() => -1);
  for (let at = 0; at < probed.params.length; at += 1) {
    const value = probed.params[at];
    const index = typeof value === 'string' ? probeIndex(value) : -1;
    if (index >= 0 && index < values.length) {
      if (slots[index] !== -1 || real.params[at] !== values[index]) return null;
      slots[index] = at;
    } else if (!isPrimitive(value) || value !== real.params[at]) {
      return null;
    }
  }
  if (slots.includes(-1)) return null;
  const { media, prefs, profileNegotiated } = request;
  return {
    sql: real.sql,
    params: real.params.slice(),
    slots,
    root: real.root,
    offset: real.offset,
    head: real.head,
    request: { media, prefs, profileNegotiated },
  };
}

/** The templates of one app's table reads, per schema cache. */
export class ReadTemplates {
  readonly #byCache = new WeakMap<SchemaCache, Map<string, Template | null>>();
  /**
   * Shapes asked for once, per schema cache: a template is made at a shape's second request,
   * so that reads whose every request is a shape of its own (an `in` list, a search pattern:
   * their values are in the key) are planned once each, not twice.
   */
  readonly #seen = new WeakMap<SchemaCache, Set<string>>();

  /** @param capacity Shapes kept per schema cache (the oldest is forgotten first). */
  constructor(private readonly capacity = 500) {}

  /**
   * The statement of a request of `shape` planned from its template, with what its response
   * needs (`prefs`); null when the shape has none (yet, or ever).
   */
  prepare(
    cache: SchemaCache,
    shape: ReadShape,
  ): { prepared: Prepared; request: Template['request'] } | null {
    const template = this.#byCache.get(cache)?.get(shape.key);
    if (!template) return null;
    const params = template.params.slice();
    template.slots.forEach((slot, index) => (params[slot] = shape.values[index]));
    const { request, offset, head } = template;
    return {
      prepared: {
        sql: template.sql,
        params,
        readOnly: true,
        respond: (row) => readResponse(request, row, offset, head),
        cacheable: isCacheableRead(cache, template.root, params),
      },
      request,
    };
  }

  /**
   * Makes the template of `shape` from `request`, a read of that shape just planned against
   * `cache` without error (`range`: its `Range` header), if its plan and the probe's agree;
   * at the shape's first request only notes it (`#seen`).
   */
  learn(cache: SchemaCache, shape: ReadShape, request: RestRequest, range: string | null): void {
    let shapes = this.#byCache.get(cache);
    if (!shapes) this.#byCache.set(cache, (shapes = new Map()));
    if (shapes.has(shape.key)) return;
    let seen = this.#seen.get(cache);
    if (!seen) this.#seen.set(cache, (seen = new Set()));
    if (!seen.delete(shape.key)) {
      if (seen.size >= this.capacity) seen.delete(seen.values().next().value!);
      seen.add(shape.key);
      return;
    }
    let template: Template | null = null;
    try {
      const probe = parseQuery(shape.probeQuery);
      applyRangeHeader(probe, range);
      const real = planReadStatement(cache, request);
      const probed = planReadStatement(cache, { ...request, query: probe });
      template = templateOf(request, real, probed, shape.values);
    } catch {
      // The probe failed where the request did not: planned every time.
    }
    if (shapes.size >= this.capacity) shapes.delete(shapes.keys().next().value!);
    shapes.set(shape.key, template);
  }
}
