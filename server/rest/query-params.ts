import { RestError } from './errors.ts';
import { checkNesting } from './limits.ts';
import { nameList } from './parse-common.ts';
import { parseFilterKey, parseFilterValue, parseLogic } from './parse-filters.ts';
import { parseOrder } from './parse-order.ts';
import { parseSelect } from './parse-select.ts';
import type { AtPath, ParsedQuery, Range } from './query-types.ts';

const RESERVED = new Set(['select', 'columns', 'on_conflict']);
const EMBEDDABLE = new Set(['order', 'limit', 'offset', 'and', 'or']);

/** Whether a parameter's name is one the parser reads as other than a filter's column. */
export const isReservedParam = (name: string) => RESERVED.has(name) || EMBEDDABLE.has(name);

export function decode(component: string): string {
  // Most names and values have nothing to decode; decoding them anyway was a measurable part
  // of parsing a read's query.
  if (component.indexOf('%') === -1 && component.indexOf('+') === -1) return component;
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    throw new RestError(400, 'PGRST100', 'Invalid percent-encoding or UTF-8 in the query string', {
      details: `Could not decode "${component.slice(0, 100)}"`,
    });
  }
}

/** Splits a raw query string into decoded pairs, in order; `a` (no `=`) is left out. */
export function splitQuery(raw: string): [string, string][] {
  const pairs: [string, string][] = [];
  if (!raw) return pairs;
  for (const part of raw.split('&')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    pairs.push([decode(part.slice(0, eq)), decode(part.slice(eq + 1))]);
  }
  return pairs;
}

function nonNegativeInteger(key: string, value: string): number {
  if (!/^\d{1,15}$/.test(value.trim())) {
    throw new RestError(
      400,
      'PGRST100',
      `"failed to parse ${key} parameter (${value})" (line 1, column 1)`,
      {
        details: 'expecting a non-negative integer',
      },
    );
  }
  return Number(value.trim());
}

/**
 * Parses every query parameter of a request into its parts: `select`, filters, logic trees,
 * order and ranges (each possibly addressed to an embed by a dotted prefix), `columns` and
 * `on_conflict`. With `isRpcRead`, parameters whose value is not a filter are function arguments.
 */
export function parseQuery(raw: string, isRpcRead = false): ParsedQuery {
  const query: ParsedQuery = {
    select: [],
    filters: [],
    logic: [],
    order: [],
    ranges: [],
    rpcArgs: [],
  };
  let select: string | undefined;
  const orderSeen = new Set<string>();
  const ranges = new Map<string, AtPath<Range>>();

  for (const [key, value] of splitQuery(raw)) {
    if (key.includes('\u0000') || value.includes('\u0000')) {
      throw new RestError(400, 'PGRST100', 'Query parameters must not contain NUL characters');
    }
    checkNesting(key, 'A query parameter name');
    checkNesting(value, `The value of query parameter "${key.slice(0, 50)}"`);
    if (RESERVED.has(key)) {
      if (key === 'select') select ??= value;
      else if (key === 'columns') query.columns ??= nameList(value, 'columns parameter');
      else query.onConflict ??= nameList(value, 'on_conflict parameter');
      continue;
    }
    const lastDot = key.lastIndexOf('.');
    const last = key.slice(lastDot + 1);
    if (EMBEDDABLE.has(last)) {
      const path = lastDot === -1 ? [] : key.slice(0, lastDot).split('.');
      if (last === 'and' || last === 'or') {
        const { path: logicPath, tree } = parseLogic(key, value);
        query.logic.push({ path: logicPath, value: tree });
      } else if (last === 'order') {
        if (orderSeen.has(path.join('.'))) continue;
        orderSeen.add(path.join('.'));
        query.order.push({ path, value: parseOrder(value) });
      } else {
        const id = path.join('.');
        const range = ranges.get(id) ?? { path, value: {} };
        ranges.set(id, range);
        range.value[last as 'limit' | 'offset'] ??= nonNegativeInteger(last, value);
      }
      continue;
    }
    if (isRpcRead) {
      // As PostgREST: on `GET /rpc/fn` a value that parses as a filter is a filter on the
      // function's result; anything else is an argument.
      try {
        const target = parseFilterKey(key);
        query.filters.push({ path: target.path, value: parseFilterValue(value, target.field) });
      } catch {
        query.rpcArgs.push([key, value]);
      }
      continue;
    }
    const target = parseFilterKey(key);
    query.filters.push({ path: target.path, value: parseFilterValue(value, target.field) });
  }
  query.select =
    select === undefined || select.trim() === '' ? [{ kind: 'star' }] : parseSelect(select);
  query.ranges = [...ranges.values()];
  return query;
}
