import { readFileSync } from 'node:fs';
import { parse, TomlError } from 'smol-toml';

/** A parsed TOML table. */
export type TomlTable = Record<string, unknown>;

/**
 * Reads and parses a TOML file; a missing file is an empty table. A file that does not parse
 * stops the start-up with the file and line at fault, rather than silently falling back to
 * defaults (a typo must not turn a security setting off).
 */
export function readTomlFile(file: string): TomlTable {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    return parse(text) as TomlTable;
  } catch (error) {
    if (error instanceof TomlError) {
      throw new Error(`${file}:${error.line}:${error.column}: ${error.message.split('\n')[0]}`);
    }
    throw error;
  }
}

/** The sub-table at `key`, or an empty one. */
export function tableAt(table: TomlTable, key: string): TomlTable {
  const value = table[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as TomlTable)
    : {};
}
