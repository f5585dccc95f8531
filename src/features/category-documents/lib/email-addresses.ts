/** The To field of the e-mail dialog: addresses separated by commas (product-spec §5). */

// Deliberately simple: something@domain.tld, no spaces. Real validation is the mail server's.
const ADDRESS = /^[^\s@,;<>()"]+@[^\s@,;<>()"]+\.[^\s@,;<>()".]{2,}$/;

export interface ParsedRecipients {
  /** Well-formed addresses, trimmed, duplicates removed (ignoring case). */
  valid: string[];
  /** Entries that are not e-mail addresses, as typed. */
  invalid: string[];
}

/** Splits the To field on commas, drops empty entries and sorts them into valid and invalid. */
export function parseRecipients(input: string): ParsedRecipients {
  const valid: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const entry of input.split(',').map((part) => part.trim())) {
    if (!entry) continue;
    if (!ADDRESS.test(entry)) invalid.push(entry);
    else if (!seen.has(entry.toLowerCase())) {
      seen.add(entry.toLowerCase());
      valid.push(entry);
    }
  }
  return { valid, invalid };
}
