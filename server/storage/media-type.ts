/**
 * The media type of an object: exactly one `type/subtype` (RFC 9110 §8.3.1), with a `charset`
 * where a charset means something and no other parameter. A browser reads a `Content-Type`
 * such as `text/plain; x=y, text/html` as a list and takes the last type, so anything looser
 * than this could be served as one type and rendered as another.
 */

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const ESSENCE = new RegExp(`^(${TOKEN})/(${TOKEN})$`);
const PARAMETER = new RegExp(`^(${TOKEN})=(${TOKEN}|"[^"\\\\]*")$`);
// Charset names as IANA registers them (`utf-8`, `ISO-8859-1`, `windows-1252`…).
const CHARSET = /^[A-Za-z0-9][A-Za-z0-9._:+-]{0,39}$/;
const MAX_LENGTH = 255;

/** A parsed media type: its lower-cased essence and charset. */
export interface MediaType {
  /** `type/subtype`, lower-cased. */
  essence: string;
  /** The `charset` parameter as given, unquoted; undefined without one. */
  charset: string | undefined;
}

/** Types whose bytes are text in some charset: the only ones a `charset` parameter may name. */
function takesCharset(type: string, subtype: string): boolean {
  return (
    type === 'text' ||
    ['json', 'xml', 'javascript', 'ecmascript'].includes(subtype) ||
    subtype.endsWith('+json') ||
    subtype.endsWith('+xml')
  );
}

/**
 * Parses `value` as one media type; null when it is anything else: a list, a bad token, an
 * unknown or repeated parameter, a charset on a type that has none, a control character.
 */
export function parseMediaType(value: string): MediaType | null {
  if (value.length > MAX_LENGTH) return null;
  const [head = '', ...rest] = value.split(';').map((part) => part.trim());
  const essence = ESSENCE.exec(head);
  if (!essence) return null;
  const [, type, subtype] = essence.map((part) => part.toLowerCase()) as [string, string, string];
  let charset: string | undefined;
  for (const part of rest) {
    if (part === '') continue; // `type/subtype;` (RFC 9110 allows empty parameters)
    const parameter = PARAMETER.exec(part);
    if (!parameter) return null;
    const name = parameter[1]!.toLowerCase();
    const raw = parameter[2]!;
    const unquoted = raw.startsWith('"') ? raw.slice(1, -1) : raw;
    if (name !== 'charset' || charset !== undefined || !takesCharset(type, subtype)) return null;
    if (!CHARSET.test(unquoted)) return null;
    charset = unquoted;
  }
  return { essence: `${type}/${subtype}`, charset };
}
