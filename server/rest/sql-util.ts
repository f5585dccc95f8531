/** Building blocks of generated SQL: quoted identifiers and positional parameters. */

/**
 * A double-quoted SQL identifier. Names reach here only after they were found in the schema
 * cache (or are output aliases chosen by the client, which quoting makes inert); NUL characters
 * are refused earlier, so the quoted text cannot end the statement.
 */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `"schema"."name"`. */
export function qualified(schema: string, name: string): string {
  return `${ident(schema)}.${ident(name)}`;
}

/** Collects the values of one statement; every value from the request is bound, never inlined. */
export class Params {
  readonly values: unknown[] = [];

  /**
   * @param filteredTextBudget What the statement's pattern and full-text filters may read, in
   *   bytes (steward.toml `[api] max_filtered_text`, see sql-filter.ts); none for a statement
   *   that is only planned, never run.
   */
  constructor(readonly filteredTextBudget?: number) {}

  /** Adds a value and returns its placeholder (`$n`). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
