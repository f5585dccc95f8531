import { readFileSync } from 'node:fs';

/**
 * The few settings of `supabase/config.toml` (the Supabase CLI's project file) that the embedded
 * backend honours, so that local mode and a hosted project read them from one place.
 */
export interface SupabaseConfig {
  /** `[functions.<name>] verify_jwt`; a function not listed verifies JWTs, as on Supabase. */
  verifyJwt(functionName: string): boolean;
  /** `[storage] file_size_limit` in bytes, when set. */
  storageFileSizeLimit: number | undefined;
}

type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
interface TomlTable {
  [key: string]: TomlValue;
}

/**
 * Reads `file`; a missing file is an empty configuration. A file that does not parse stops the
 * start-up with the line at fault, rather than silently turning JWT checks on or off.
 */
export function readSupabaseConfig(file: string): SupabaseConfig {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const root = parseToml(text, file);
  const table = (value: TomlValue | undefined): TomlTable =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  const functions = table(root.functions);
  const storageLimit = table(root.storage).file_size_limit;
  return {
    verifyJwt: (name) => table(functions[name]).verify_jwt !== false,
    storageFileSizeLimit:
      typeof storageLimit === 'string' || typeof storageLimit === 'number'
        ? parseByteSize(storageLimit)
        : undefined,
  };
}

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  kib: 1024,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** `"50MiB"`, `"5MB"`, `1024`… in bytes. */
export function parseByteSize(value: string | number): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]i?b|b)?\s*$/i.exec(String(value));
  if (!match) throw new Error(`not a size: ${String(value)}`);
  return Math.floor(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]!);
}

/**
 * A small TOML reader for the subset config.toml uses: `[table.headers]`, `key = value` with
 * strings, numbers, booleans and one-line arrays, and comments.
 */
export function parseToml(text: string, source = 'config.toml'): TomlTable {
  const root: TomlTable = {};
  let current = root;
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const fail = (why: string): never => {
      throw new Error(`${source}:${index + 1}: ${why}`);
    };
    const line = stripComment(rawLine).trim();
    if (line === '') return;
    const header = /^\[([^[\]]+)\]$/.exec(line);
    if (header) {
      current = root;
      for (const key of splitKey(header[1]!, fail)) {
        const next = current[key] ?? {};
        if (typeof next !== 'object' || Array.isArray(next)) fail(`"${key}" is not a table`);
        current[key] = next;
        current = next as TomlTable;
      }
      return;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) fail('expected key = value');
    const keys = splitKey(line.slice(0, eq), fail);
    const last = keys.pop()!;
    let target = current;
    for (const key of keys) {
      const next = target[key] ?? {};
      if (typeof next !== 'object' || Array.isArray(next)) fail(`"${key}" is not a table`);
      target[key] = next;
      target = next as TomlTable;
    }
    target[last] = parseValue(line.slice(eq + 1).trim(), fail);
  });
  return root;
}

function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '#') {
      return line.slice(0, i);
    }
  }
  return line;
}

function splitKey(key: string, fail: (why: string) => never): string[] {
  return key.split('.').map((part) => {
    const trimmed = part.trim();
    const quoted = /^"([^"]*)"$|^'([^']*)'$/.exec(trimmed);
    if (quoted) return quoted[1] ?? quoted[2]!;
    if (!/^[A-Za-z0-9_-]+$/.test(trimmed)) fail(`bad key "${trimmed}"`);
    return trimmed;
  });
}

function parseValue(value: string, fail: (why: string) => never): TomlValue {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^[+-]?\d[\d_]*(\.\d+)?$/.test(value)) return Number(value.replace(/_/g, ''));
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return fail(`bad string ${value}`);
    }
  }
  if (value.startsWith("'") && value.endsWith("'") && value.length >= 2) return value.slice(1, -1);
  if (value.startsWith('[') && value.endsWith(']')) {
    const inner = value.slice(1, -1).trim();
    if (inner === '') return [];
    return splitArray(inner).map((item) => parseValue(item.trim(), fail));
  }
  return fail(`unsupported value ${value}`);
}

function splitArray(inner: string): string[] {
  const items: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === ',') {
      items.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  const tail = inner.slice(start);
  if (tail.trim() !== '') items.push(tail);
  return items;
}
