/**
 * Typed reading of one setting from a TOML table, with an environment variable taking
 * precedence. Every reader fails fast, naming the setting, when a value has the wrong shape.
 */
import type { TomlTable } from './toml.ts';

/** Where a setting comes from: a key of a TOML table (named for messages) and an optional variable. */
export interface SettingSource {
  table: TomlTable;
  /** `file [section]`, for error messages. */
  where: string;
  key: string;
  env?: { vars: NodeJS.ProcessEnv; name: string };
}

function raw(source: SettingSource): { value: unknown; name: string } | undefined {
  const fromEnv = source.env ? source.env.vars[source.env.name] : undefined;
  if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, name: source.env!.name };
  const value = source.table[source.key];
  return value === undefined ? undefined : { value, name: `${source.where} ${source.key}` };
}

function fail(name: string, expected: string, value: unknown): never {
  throw new Error(`${name} must be ${expected}, got ${JSON.stringify(value)}`);
}

export function integerSetting(source: SettingSource, fallback: number, minimum = 0): number {
  const found = raw(source);
  if (!found) return fallback;
  const value = typeof found.value === 'string' ? Number(found.value) : found.value;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    fail(found.name, `an integer of at least ${minimum}`, found.value);
  }
  return value;
}

export function booleanSetting(source: SettingSource, fallback: boolean): boolean {
  const found = raw(source);
  if (!found) return fallback;
  const { value } = found;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return fail(found.name, 'true or false', value);
}

export function stringSetting(source: SettingSource, fallback: string): string {
  const found = raw(source);
  if (!found) return fallback;
  if (typeof found.value !== 'string') fail(found.name, 'a string', found.value);
  return found.value;
}

/** One of a fixed list of strings. */
export function choiceSetting<T extends string>(
  source: SettingSource,
  choices: readonly T[],
  fallback: T,
): T {
  const found = raw(source);
  if (!found) return fallback;
  if (!(choices as readonly unknown[]).includes(found.value)) {
    fail(found.name, `one of ${choices.map((c) => JSON.stringify(c)).join(', ')}`, found.value);
  }
  return found.value as T;
}

/** A list of strings; from the environment, a comma-separated list. */
export function stringListSetting(source: SettingSource, fallback: string[]): string[] {
  const found = raw(source);
  if (!found) return fallback;
  if (typeof found.value === 'string' && found.name === source.env?.name) {
    return found.value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }
  if (!Array.isArray(found.value) || found.value.some((item) => typeof item !== 'string')) {
    fail(found.name, 'a list of strings', found.value);
  }
  return found.value as string[];
}

const BYTE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  kib: 1024,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
  tb: 1000 ** 4,
  tib: 1024 ** 4,
};

/** `"50MiB"`, `"5MB"`, `1024`… in bytes; undefined when it is no size. */
export function parseByteSize(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)?\s*$/i.exec(value);
  if (!match) return undefined;
  return Math.floor(Number(match[1]) * BYTE_UNITS[(match[2] ?? 'b').toLowerCase()]!);
}

/** A size in bytes, written as `"50MiB"`, `"5MB"` or a number of bytes. */
export function byteSizeSetting(source: SettingSource, fallback: number, minimum = 0): number {
  const found = raw(source);
  if (!found) return fallback;
  const bytes = parseByteSize(
    typeof found.value === 'string' && /^\d+$/.test(found.value)
      ? Number(found.value)
      : found.value,
  );
  if (bytes === undefined) {
    return fail(found.name, 'a size such as "50MiB" or a number of bytes', found.value);
  }
  if (bytes < minimum) return fail(found.name, `at least ${minimum} bytes`, found.value);
  return bytes;
}

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** `"3s"`, `"500ms"`, `"2m"`, `"7d"` in milliseconds; undefined when it is no duration. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(value);
  return match ? Math.round(Number(match[1]) * DURATION_UNITS[match[2]!]!) : undefined;
}

/** A duration in milliseconds, written as `"3s"`, `"500ms"`, `"2m"`, `"1h"` or `"7d"`. */
export function durationSetting(source: SettingSource, fallbackMs: number): number {
  const found = raw(source);
  if (!found) return fallbackMs;
  return (
    parseDuration(found.value) ??
    fail(found.name, 'a duration such as "3s" or "500ms"', found.value)
  );
}
