import { RestError } from './errors.ts';
import { Cursor, field, fieldName, jsonPath, quotedValue } from './parse-common.ts';
import type {
  FieldRef,
  Filter,
  FtsOperator,
  IsValue,
  LogicTree,
  Operation,
  QuantOperator,
  SimpleOperator,
} from './query-types.ts';
import { FTS_OPERATORS, IS_VALUES, QUANT_OPERATORS, SIMPLE_OPERATORS } from './query-types.ts';

/** `or=(...)` groups nested deeper than this are refused: each level nests the SQL. */
export const MAX_LOGIC_DEPTH = 10;

const OPERATOR_EXPECTED = 'operator (eq, gt, ...)';

/** The rest of the value, used by top-level filters (`col=eq.anything, even.dots`). */
const restOfInput = (cursor: Cursor) => {
  const value = cursor.input.slice(cursor.pos);
  cursor.pos = cursor.input.length;
  return value;
};

/** A value inside a logic group: quoted, a `{...}` array literal, or up to `,` or `)`. */
function logicValue(cursor: Cursor): string {
  const start = cursor.pos;
  const quoted = quotedValue(cursor);
  if (quoted !== null) {
    if (cursor.done || cursor.peek() === ',' || cursor.peek() === ')') return quoted;
    cursor.pos = start;
  }
  if (cursor.peek() === '{') {
    const close = cursor.input.indexOf('}', cursor.pos);
    const inner = close === -1 ? '' : cursor.input.slice(cursor.pos + 1, close);
    if (close !== -1 && !inner.includes('{')) {
      cursor.pos = close + 1;
      return `{${inner}}`;
    }
  }
  while (!cursor.done && cursor.peek() !== ',' && cursor.peek() !== ')') cursor.pos += 1;
  return cursor.input.slice(start, cursor.pos);
}

/** `(a,"b,c",d)` for `in`. */
function listValue(cursor: Cursor): string[] {
  cursor.skipSpaces();
  cursor.expect('(');
  const values: string[] = [];
  for (;;) {
    const start = cursor.pos;
    const quoted = quotedValue(cursor);
    if (quoted !== null && (cursor.peek() === ',' || cursor.peek() === ')')) {
      values.push(quoted);
    } else {
      cursor.pos = start;
      while (!cursor.done && cursor.peek() !== ',' && cursor.peek() !== ')') cursor.pos += 1;
      values.push(cursor.input.slice(start, cursor.pos));
    }
    if (!cursor.eat(',')) break;
  }
  cursor.expect(')', '"," or ")"');
  cursor.skipSpaces();
  return values;
}

function startsWithWord<T extends string>(cursor: Cursor, words: readonly T[]): T | null {
  // Longest first, so `gte` wins over `gt` and `imatch` is not read as something shorter.
  const sorted = [...words].sort((a, b) => b.length - a.length);
  return sorted.find((word) => cursor.startsWith(word)) ?? null;
}

/** `[not.]operator[(modifier)].value`, where `value` is read by `readValue`. */
function operation(
  cursor: Cursor,
  readValue: (cursor: Cursor) => string,
): { negate: boolean; operation: Operation } {
  const negate = cursor.eat('not.');
  if (cursor.eat('in.')) return { negate, operation: { kind: 'in', values: listValue(cursor) } };
  if (cursor.eat('isdistinct.')) {
    return { negate, operation: { kind: 'isdistinct', value: readValue(cursor) } };
  }
  if (cursor.eat('is.')) {
    const raw = readValue(cursor);
    const value = IS_VALUES.find((v) => v === raw.toLowerCase());
    if (!value) {
      cursor.pos -= raw.length;
      cursor.fail('isVal: (null, not_null, true, false, unknown)');
    }
    return { negate, operation: { kind: 'is', value: value as IsValue } };
  }
  const fts = startsWithWord(cursor, FTS_OPERATORS);
  if (fts && (cursor.peek(fts.length) === '.' || cursor.peek(fts.length) === '(')) {
    cursor.pos += fts.length;
    let language: string | undefined;
    if (cursor.eat('(')) {
      const match = /^[\p{L}\p{N}_ $]+/u.exec(cursor.input.slice(cursor.pos));
      if (!match) cursor.fail(OPERATOR_EXPECTED);
      cursor.pos += match[0].length;
      language = match[0].trim();
      cursor.expect(')');
    }
    cursor.expect('.', 'delimiter (.)');
    const op: Operation = { kind: 'fts', operator: fts as FtsOperator, value: readValue(cursor) };
    if (language !== undefined) op.language = language;
    return { negate, operation: op };
  }
  const simple = startsWithWord(cursor, SIMPLE_OPERATORS);
  if (simple && cursor.peek(simple.length) === '.') {
    cursor.pos += simple.length + 1;
    return {
      negate,
      operation: { kind: 'simple', operator: simple as SimpleOperator, value: readValue(cursor) },
    };
  }
  const quant = startsWithWord(cursor, QUANT_OPERATORS);
  if (quant) {
    const save = cursor.pos;
    cursor.pos += quant.length;
    let quantifier: 'any' | 'all' | undefined;
    if (cursor.eat('(any)')) quantifier = 'any';
    else if (cursor.eat('(all)')) quantifier = 'all';
    if (cursor.eat('.')) {
      const op: Operation = {
        kind: 'quant',
        operator: quant as QuantOperator,
        value: readValue(cursor),
      };
      if (quantifier) op.quantifier = quantifier;
      return { negate, operation: op };
    }
    cursor.pos = save;
  }
  return cursor.fail(negate ? OPERATOR_EXPECTED : `"not" or ${OPERATOR_EXPECTED}`);
}

/** The key of a filter: `col`, `col->json->>path`, or `embed.path.col`. */
export function parseFilterKey(key: string): { path: string[]; field: FieldRef } {
  const cursor = new Cursor(key, 'tree path');
  const names = [fieldName(cursor)];
  while (cursor.eat('.')) names.push(fieldName(cursor));
  const steps = jsonPath(cursor);
  if (!cursor.done) cursor.fail('"->", "." or end of input');
  const name = names.pop()!;
  return { path: names, field: { name, jsonPath: steps } };
}

/** Parses a filter value (`not.eq.5`, `in.(1,2)`, `fts(english).cat`) for `field`. */
export function parseFilterValue(value: string, fieldRef: FieldRef): Filter {
  const cursor = new Cursor(value, `filter`);
  const { negate, operation: op } = operation(cursor, restOfInput);
  if (!cursor.done) cursor.fail('end of input');
  return { field: fieldRef, negate, operation: op };
}

function logicTree(cursor: Cursor, depth: number): LogicTree {
  if (depth > MAX_LOGIC_DEPTH) {
    throw new RestError(
      400,
      'PGRST100',
      `Logic trees (and/or) are nested deeper than ${MAX_LOGIC_DEPTH} levels`,
      {
        details: 'Simplify the filter.',
      },
    );
  }
  cursor.skipSpaces();
  const start = cursor.pos;
  const negate = cursor.eat('not.');
  for (const operator of ['and', 'or'] as const) {
    if (cursor.startsWith(operator + '(')) {
      cursor.pos += operator.length + 1;
      const children: LogicTree[] = [];
      do {
        children.push(logicTree(cursor, depth + 1));
        cursor.skipSpaces();
      } while (cursor.eat(','));
      cursor.expect(')', '"," or ")"');
      return { kind: 'group', negate, operator, children };
    }
  }
  cursor.pos = start;
  const ref = field(cursor);
  cursor.expect('.', 'delimiter (.)');
  const { negate: notOp, operation: op } = operation(cursor, logicValue);
  return { kind: 'filter', filter: { field: ref, negate: notOp, operation: op } };
}

/**
 * Parses a logic parameter: key `or`, `and`, `not.or`, `embed.not.and`; value `(a.eq.1,b.gt.2)`.
 * Returns the embed path and the tree.
 */
export function parseLogic(key: string, value: string): { path: string[]; tree: LogicTree } {
  const parts = key.split('.');
  const operator = parts.pop() as 'and' | 'or';
  const negate = parts.includes('not');
  const path = parts.filter((part) => part !== 'not');
  const cursor = new Cursor(`${negate ? 'not.' : ''}${operator}${value}`, 'logic tree');
  const tree = logicTree(cursor, 0);
  cursor.skipSpaces();
  if (!cursor.done) cursor.fail('end of input');
  return { path, tree };
}
