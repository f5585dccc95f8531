import { Cursor, field, fieldName } from './parse-common.ts';
import type { OrderTerm } from './query-types.ts';

function termEnd(cursor: Cursor): boolean {
  return cursor.done || cursor.peek() === ',';
}

function directionAndNulls(cursor: Cursor, term: OrderTerm): void {
  if (cursor.eat('.asc')) term.direction = 'asc';
  else if (cursor.eat('.desc')) term.direction = 'desc';
  if (cursor.eat('.nullsfirst')) term.nulls = 'first';
  else if (cursor.eat('.nullslast')) term.nulls = 'last';
  cursor.skipSpaces();
  if (!termEnd(cursor)) {
    cursor.fail(
      term.nulls
        ? '"," or end of input'
        : term.direction
          ? '"nullsfirst" or "nullslast"'
          : '"asc", "desc", "nullsfirst" or "nullslast"',
    );
  }
}

/**
 * Parses `order=col.desc.nullslast,other,parent(col).asc`: columns (with JSON paths) or a
 * column of a to-one embed, each with an optional direction and nulls position.
 */
export function parseOrder(input: string): OrderTerm[] {
  const cursor = new Cursor(input, 'order');
  const terms: OrderTerm[] = [];
  do {
    cursor.skipSpaces();
    const start = cursor.pos;
    const name = fieldName(cursor);
    let term: OrderTerm;
    if (cursor.peek() === '(') {
      cursor.pos += 1;
      term = { relation: name, field: field(cursor) };
      cursor.expect(')');
    } else {
      cursor.pos = start;
      term = { field: field(cursor) };
    }
    directionAndNulls(cursor, term);
    terms.push(term);
  } while (cursor.eat(','));
  if (!cursor.done) cursor.fail('"," or end of input');
  return terms;
}
