/**
 * Text gathered from a file, up to a number of characters: what passes the limit is left out
 * and the text is marked truncated. Characters Postgres cannot store (NUL) and runs of spaces
 * are dropped on the way.
 */
export class CollectedText {
  readonly #parts: string[] = [];
  #length = 0;
  #truncated = false;

  constructor(private readonly maxCharacters: number) {}

  /** Whether the limit is reached: readers stop reading. */
  get full(): boolean {
    return this.#length >= this.maxCharacters;
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  /** Adds `text` as a paragraph of its own. */
  add(text: string): void {
    const clean = normaliseWhitespace(text);
    if (clean === '') return;
    const room = this.maxCharacters - this.#length;
    if (room <= 0) {
      this.#truncated = true;
      return;
    }
    const part = clean.length > room ? clean.slice(0, room) : clean;
    if (part.length < clean.length) this.#truncated = true;
    this.#parts.push(part);
    this.#length += part.length + 2;
  }

  /** Marks the text as incomplete (pages or images left unread). */
  markTruncated(): void {
    this.#truncated = true;
  }

  toString(): string {
    return this.#parts.join('\n\n');
  }
}

// Control characters other than tab and newline (NUL above all, which Postgres text refuses),
// and unpaired surrogates, which are not valid text.
const UNSTORABLE =
  // eslint-disable-next-line no-control-regex -- these are the characters to remove
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function normaliseWhitespace(text: string): string {
  return text
    .replace(UNSTORABLE, ' ')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
