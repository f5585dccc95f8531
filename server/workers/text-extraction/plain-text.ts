import type { CollectedText } from './collected-text.ts';

/** Decodes text in UTF-8 (or UTF-16 with a byte-order mark); else as Windows-1252. */
function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * The readable words of HTML or XML: scripts, styles and comments dropped, tags read as spaces,
 * character references decoded. For searching, not for showing: markup is never kept.
 */
function markupText(markup: string): string {
  return markup
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, ' $1 ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, code: string) => {
      if (code[0] !== '#') return ENTITIES[code.toLowerCase()] ?? entity;
      const point =
        code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : Number(code.slice(1));
      return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : ' ';
    });
}

/** The text of a plain-text file (txt, md, csv, json…) or of markup (html, xml). */
export function readPlainText(bytes: Uint8Array, markup: boolean, text: CollectedText): void {
  // Reading more than the limit could keep (four bytes a character at most) is wasted work.
  const decoded = decode(bytes.subarray(0, 4 * 1_000_000));
  text.add(markup ? markupText(decoded) : decoded);
}
