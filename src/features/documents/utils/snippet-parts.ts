/** A piece of a search snippet: plain text, or a word the search matched. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

/** Words kept before the first highlighted one: enough to read it in its sentence. */
export const LEAD_WORDS = 4;

/**
 * The server's snippet (words between `<mark>` and `</mark>`) as parts to render as text,
 * never as HTML, with the text before the first highlighted word cut to its last
 * `LEAD_WORDS` words after an ellipsis: the snippet shows on two lines at most, and the word
 * that made the document match must be on them (issue 25).
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let marked = false;
  for (const piece of snippet.split(/(<mark>|<\/mark>)/)) {
    if (piece === '<mark>' || piece === '</mark>') marked = piece === '<mark>';
    else if (piece) parts.push({ text: piece, marked });
  }
  const [lead, next] = parts;
  if (lead && !lead.marked && next) lead.text = lastWords(lead.text, LEAD_WORDS);
  return parts;
}

/** The end of `text` from its `count`-th last word on, after "… " when something was cut. */
function lastWords(text: string, count: number): string {
  // Words and the spaces after them; the last piece may be the start of the highlighted word.
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const trailing = /\s$/.test(text) || text === '' ? 0 : 1;
  const keep = count + trailing;
  if (words.filter((word) => /\S/.test(word)).length <= keep) return text;
  return `… ${words.slice(-keep).join('').trimStart()}`;
}
