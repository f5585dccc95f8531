import { parseError } from './errors.ts';
import type { FieldRef, JsonStep } from './query-types.ts';

/**
 * A position in one query-parameter value, with the pieces of PostgREST's grammar that the
 * select, filter, order and logic parsers share. Failures become PGRST100 errors that name the
 * parameter, the column and what was expected, in PostgREST's wording.
 */
export class Cursor {
  pos = 0;

  constructor(
    readonly input: string,
    /** e.g. `select parameter`, `filter`, `order`: used in error messages. */
    readonly what: string,
  ) {}

  get done(): boolean {
    return this.pos >= this.input.length;
  }

  peek(offset = 0): string {
    return this.input[this.pos + offset] ?? '';
  }

  startsWith(text: string): boolean {
    return this.input.startsWith(text, this.pos);
  }

  /** Consumes `text` if it is next. */
  eat(text: string): boolean {
    if (!this.startsWith(text)) return false;
    this.pos += text.length;
    return true;
  }

  expect(text: string, expecting = `"${text}"`): void {
    if (!this.eat(text)) this.fail(expecting);
  }

  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos += 1;
  }

  fail(expecting: string): never {
    const unexpected = this.done ? 'end of input' : `"${this.peek()}"`;
    throw parseError(
      this.what,
      this.input,
      this.pos + 1,
      `unexpected ${unexpected} expecting ${expecting}`,
    );
  }
}

const IDENTIFIER_CHAR = /[\p{L}\p{N}_ $]/u;

/** `"quoted"` with backslash escapes, as PostgREST's pQuotedValue. */
export function quotedValue(cursor: Cursor): string | null {
  if (cursor.peek() !== '"') return null;
  cursor.pos += 1;
  let value = '';
  for (;;) {
    if (cursor.done) cursor.fail('"\\"" to close the quoted value');
    const ch = cursor.peek();
    cursor.pos += 1;
    if (ch === '"') return value;
    if (ch === '\\') {
      if (cursor.done) cursor.fail('an escaped character');
      value += cursor.peek();
      cursor.pos += 1;
    } else {
      value += ch;
    }
  }
}

function identifier(cursor: Cursor): string {
  const start = cursor.pos;
  while (!cursor.done && IDENTIFIER_CHAR.test(cursor.peek())) cursor.pos += 1;
  return cursor.input.slice(start, cursor.pos);
}

/**
 * A column, table or alias name: quoted, or identifier characters (letters, digits, `_`, `$`,
 * space) in dash-separated pieces (a dash followed by `>` starts a JSON path instead).
 */
export function fieldName(cursor: Cursor): string {
  const quoted = quotedValue(cursor);
  if (quoted !== null) return quoted;
  let name = identifier(cursor);
  if (name === '') cursor.fail('field name (* or [a..z0..9_$])');
  while (cursor.peek() === '-' && cursor.peek(1) !== '>') {
    cursor.pos += 1;
    const piece = identifier(cursor);
    if (piece === '') cursor.fail('letter or digit');
    name += '-' + piece;
  }
  name = name.trim();
  if (name === '') cursor.fail('field name (* or [a..z0..9_$])');
  return name;
}

const JSON_KEY_STOP = new Set(['(', '-', ':', '.', ',', '>', ')']);

function jsonKey(cursor: Cursor): string {
  const quoted = quotedValue(cursor);
  if (quoted !== null) return quoted;
  const piece = () => {
    const start = cursor.pos;
    while (!cursor.done && !JSON_KEY_STOP.has(cursor.peek())) cursor.pos += 1;
    return cursor.input.slice(start, cursor.pos);
  };
  let key = piece();
  if (key.trim() === '') cursor.fail('any non reserved character different from: .,>()');
  while (cursor.peek() === '-' && cursor.peek(1) !== '>') {
    cursor.pos += 1;
    const next = piece();
    if (next.trim() === '') cursor.fail('any non reserved character different from: .,>()');
    key += '-' + next;
  }
  return key.trim();
}

/** `->key`, `->>key`, `->0` steps after a field name. */
export function jsonPath(cursor: Cursor): JsonStep[] {
  const steps: JsonStep[] = [];
  for (;;) {
    let arrow: JsonStep['arrow'];
    if (cursor.eat('->>')) arrow = '->>';
    else if (cursor.eat('->')) arrow = '->';
    else return steps;
    const index = /^-?\d+(?=->|::|\.|,|\)|$)/.exec(cursor.input.slice(cursor.pos));
    if (index) {
      cursor.pos += index[0].length;
      steps.push({ arrow, key: index[0], index: true });
    } else {
      steps.push({ arrow, key: jsonKey(cursor), index: false });
    }
  }
}

/** A field name followed by an optional JSON path, with surrounding spaces ignored. */
export function field(cursor: Cursor): FieldRef {
  cursor.skipSpaces();
  const name = fieldName(cursor);
  const path = jsonPath(cursor);
  cursor.skipSpaces();
  return { name, jsonPath: path };
}

/** `name1,name2` (quoted names allowed), for `columns` and `on_conflict`. */
export function nameList(input: string, what: string): string[] {
  const cursor = new Cursor(input, what);
  const names: string[] = [];
  do {
    cursor.skipSpaces();
    names.push(fieldName(cursor));
    cursor.skipSpaces();
  } while (cursor.eat(','));
  if (!cursor.done) cursor.fail('"," or end of input');
  return names;
}
