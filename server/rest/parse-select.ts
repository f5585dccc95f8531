import { RestError } from './errors.ts';
import { embedsTooDeep } from './limits.ts';
import { Cursor, fieldName, field, quotedValue } from './parse-common.ts';
import type { SelectItem } from './query-types.ts';

/**
 * The parser's own guard against input nested deep enough to exhaust its stack; the
 * installation's (much lower) bound is checked after parsing (limits.ts `checkSelectBounds`).
 */
const PARSER_MAX_DEPTH = 32;

const AGGREGATES = ['sum', 'avg', 'count', 'max', 'min'];

const aggregatesNotAllowed = () =>
  new RestError(400, 'PGRST123', 'Use of aggregate functions is not allowed');

/** A cast type name: letters, digits, `_`, `$` and spaces, as PostgREST's pIdentifier. */
function castName(cursor: Cursor): string {
  const match = /^[\p{L}\p{N}_ $]+/u.exec(cursor.input.slice(cursor.pos));
  if (!match) cursor.fail('letter or digit');
  cursor.pos += match[0].length;
  return match[0].trim();
}

function itemEnd(cursor: Cursor): boolean {
  return cursor.done || cursor.peek() === ',' || cursor.peek() === ')';
}

/** `!hint`, `!inner`, `!left`, in either order, at most two. */
function embedParams(cursor: Cursor): { hint?: string; joinType?: 'inner' | 'left' } {
  const result: { hint?: string; joinType?: 'inner' | 'left' } = {};
  for (let i = 0; i < 2 && cursor.peek() === '!'; i += 1) {
    cursor.pos += 1;
    const save = cursor.pos;
    const name = fieldName(cursor);
    if ((name === 'inner' || name === 'left') && result.joinType === undefined) {
      result.joinType = name;
    } else if (result.hint === undefined) {
      result.hint = name;
    } else {
      cursor.pos = save;
      cursor.fail('"(" after the embed hint');
    }
  }
  return result;
}

function parseForest(cursor: Cursor, depth: number): SelectItem[] {
  if (depth > PARSER_MAX_DEPTH) throw embedsTooDeep(PARSER_MAX_DEPTH);
  const items: SelectItem[] = [];
  cursor.skipSpaces();
  if (itemEnd(cursor) && cursor.peek() !== ',') return items;
  for (;;) {
    items.push(parseItem(cursor, depth));
    cursor.skipSpaces();
    if (!cursor.eat(',')) break;
    cursor.skipSpaces();
  }
  return items;
}

function parseChildren(cursor: Cursor, depth: number): SelectItem[] {
  cursor.expect('(');
  const children = parseForest(cursor, depth + 1);
  cursor.expect(')', '")" or ","');
  return children;
}

function parseItem(cursor: Cursor, depth: number): SelectItem {
  cursor.skipSpaces();
  if (cursor.eat('...')) {
    const relation = fieldName(cursor);
    const params = embedParams(cursor);
    if (cursor.peek() !== '(') cursor.fail('"("');
    return {
      kind: 'embed',
      relation,
      ...params,
      spread: true,
      children: parseChildren(cursor, depth),
    };
  }
  if (cursor.peek() === '*') {
    cursor.pos += 1;
    cursor.skipSpaces();
    if (!itemEnd(cursor)) cursor.fail('")", "," or end of input');
    return { kind: 'star' };
  }

  // An optional `alias:` (a single colon; `::` is a cast).
  let alias: string | undefined;
  const start = cursor.pos;
  const first = quotedValue(cursor) ?? readName(cursor);
  if (cursor.peek() === ':' && cursor.peek(1) !== ':') {
    cursor.pos += 1;
    alias = first;
  } else {
    cursor.pos = start;
  }

  if (cursor.startsWith('count()')) throw aggregatesNotAllowed();
  const nameStart = cursor.pos;
  const name = fieldName(cursor);
  if (cursor.peek() === '!' || cursor.peek() === '(') {
    if (name === 'count' && cursor.peek() === '(') throw aggregatesNotAllowed();
    const params = embedParams(cursor);
    if (cursor.peek() !== '(') cursor.fail('"("');
    return {
      kind: 'embed',
      relation: name,
      ...(alias !== undefined ? { alias } : {}),
      ...params,
      spread: false,
      children: parseChildren(cursor, depth),
    };
  }
  cursor.pos = nameStart;
  const ref = field(cursor);
  let cast: string | undefined;
  if (cursor.eat('::')) cast = castName(cursor);
  if (cursor.peek() === '.') {
    const rest = cursor.input.slice(cursor.pos + 1);
    if (AGGREGATES.some((aggregate) => rest.startsWith(aggregate + '()'))) {
      throw aggregatesNotAllowed();
    }
  }
  cursor.skipSpaces();
  if (!itemEnd(cursor)) cursor.fail('"->", "::", ")", "," or end of input');
  return {
    kind: 'field',
    field: ref,
    ...(alias !== undefined ? { alias } : {}),
    ...(cast !== undefined ? { cast } : {}),
  };
}

/** Reads a plain name without failing (used to look ahead for `alias:`). */
function readName(cursor: Cursor): string {
  try {
    return fieldName(cursor);
  } catch {
    return '';
  }
}

/**
 * Parses `select=` into a tree of items: `*`, columns with aliases, casts and JSON paths, and
 * embedded resources (`alias:table!hint!inner(...)`, `...spread(...)`), nested.
 */
export function parseSelect(input: string): SelectItem[] {
  const cursor = new Cursor(input, 'select parameter');
  const items = parseForest(cursor, 0);
  cursor.skipSpaces();
  if (!cursor.done) cursor.fail('"," or end of input');
  return items;
}
