import { RestError } from './errors.ts';

/** The `Prefer` header values PostgREST honours (supabase-compat.md §3.1). */
export interface Preferences {
  return?: 'representation' | 'minimal' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  handling?: 'strict' | 'lenient';
  maxAffected?: number;
  /** `tx=commit` or `tx=rollback`, only when `[api] db_tx_end` allows the override. */
  tx?: 'commit' | 'rollback';
  /** A time zone of `pg_timezone_names`; the responses' times are written in it. */
  timezone?: string;
  /** Values that are not preferences at all. */
  invalid: string[];
}

const CHOICES = {
  return: ['representation', 'minimal', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  handling: ['strict', 'lenient'],
} as const;

// Understood but not applied.
const IGNORED = /^params=single-object$/;
const TIMEZONE = 'timezone=';

export interface PreferenceContext {
  /** `tx=commit` and `tx=rollback` may end the transaction (`[api] db_tx_end` `*-allow-override`). */
  txOverride: boolean;
  /** The names of `pg_timezone_names`; needed when the header names a time zone. */
  timezones?: ReadonlySet<string>;
}

/** Whether a `Prefer` header names a time zone, so that the names must be known to parse it. */
export function namesTimezone(header: string | null | undefined): boolean {
  return header?.includes(TIMEZONE) ?? false;
}

/**
 * Parses every `Prefer` header (comma-separated, first occurrence wins, as PostgREST). With
 * `handling=strict`, anything unrecognised is a 400 PGRST122; so is a time zone Postgres does
 * not know, which is otherwise ignored (PostgREST 12 to 14: the first `timezone=` counts, and
 * when it is unknown every `timezone=` is invalid).
 */
export function parsePreferences(
  header: string | null | undefined,
  context: PreferenceContext = { txOverride: false },
): Preferences {
  const prefs: Preferences = { invalid: [] };
  if (!header) return prefs;
  const values = header.split(',').map((raw) => raw.trim());
  const zone = values.find((value) => value.startsWith(TIMEZONE))?.slice(TIMEZONE.length);
  const zoneKnown = zone !== undefined && context.timezones?.has(zone) === true;
  if (zoneKnown) prefs.timezone = zone;
  for (const value of values) {
    if (!value) continue;
    const eq = value.indexOf('=');
    const key = eq === -1 ? value : value.slice(0, eq);
    const choice = eq === -1 ? '' : value.slice(eq + 1);
    if (
      Object.hasOwn(CHOICES, key) &&
      (CHOICES[key as keyof typeof CHOICES] as readonly string[]).includes(choice)
    ) {
      const k = key as keyof typeof CHOICES;
      if (prefs[k] === undefined) (prefs as unknown as Record<string, unknown>)[k] = choice;
    } else if (key === 'max-affected' && /^\d{1,15}$/.test(choice)) {
      prefs.maxAffected ??= Number(choice);
    } else if (key === 'tx' && (choice === 'commit' || choice === 'rollback')) {
      if (context.txOverride) prefs.tx ??= choice;
    } else if (value.startsWith(TIMEZONE)) {
      if (!zoneKnown) prefs.invalid.push(value);
    } else if (!IGNORED.test(value)) {
      prefs.invalid.push(value);
    }
  }
  if (prefs.handling === 'strict' && prefs.invalid.length > 0) {
    throw new RestError(400, 'PGRST122', 'Invalid preferences given with handling=strict', {
      details: `Invalid preferences: ${prefs.invalid.join(', ')}`,
    });
  }
  return prefs;
}

type AppliedKey = 'resolution' | 'missing' | 'return' | 'count' | 'handling' | 'maxAffected';

// PostgREST's order in `Preference-Applied`.
const APPLIED_ORDER = [
  'resolution',
  'missing',
  'return',
  'count',
  'tx',
  'handling',
  'timezone',
  'maxAffected',
] as const;

// Applied by every request that got them, whatever it does.
const ALWAYS_APPLIED: ReadonlySet<string> = new Set(['tx', 'timezone']);

/**
 * The `Preference-Applied` header value for the preferences a response honoured, in PostgREST's
 * order; `max-affected` counts only with `handling=strict`, as there.
 */
export function appliedPreferences(prefs: Preferences, keys: readonly AppliedKey[]): string | null {
  const applied: string[] = [];
  for (const key of APPLIED_ORDER) {
    if (!ALWAYS_APPLIED.has(key) && !keys.includes(key as AppliedKey)) continue;
    const value = prefs[key];
    if (value === undefined) continue;
    if (key === 'maxAffected') {
      if (prefs.handling === 'strict') applied.push(`max-affected=${value}`);
    } else applied.push(`${key}=${value}`);
  }
  return applied.length > 0 ? applied.join(', ') : null;
}
