import { RestError } from './errors.ts';

/** The `Prefer` header values PostgREST honours (supabase-compat.md §3.1). */
export interface Preferences {
  return?: 'representation' | 'minimal' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  handling?: 'strict' | 'lenient';
  maxAffected?: number;
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

// Understood but not applied, as with PostgREST's default configuration (no tx override).
const IGNORED = /^(tx=(commit|rollback)|timezone=.+|params=single-object)$/;

/**
 * Parses every `Prefer` header (comma-separated, first occurrence wins, as PostgREST). With
 * `handling=strict`, anything unrecognised is a 400 PGRST122.
 */
export function parsePreferences(header: string | null | undefined): Preferences {
  const prefs: Preferences = { invalid: [] };
  if (!header) return prefs;
  for (const raw of header.split(',')) {
    const value = raw.trim();
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
const APPLIED_ORDER: readonly AppliedKey[] = [
  'resolution',
  'missing',
  'return',
  'count',
  'handling',
  'maxAffected',
];

/**
 * The `Preference-Applied` header value for the preferences a response honoured, in PostgREST's
 * order; `max-affected` counts only with `handling=strict`, as there.
 */
export function appliedPreferences(prefs: Preferences, keys: readonly AppliedKey[]): string | null {
  const applied: string[] = [];
  for (const key of APPLIED_ORDER) {
    if (!keys.includes(key)) continue;
    const value = prefs[key];
    if (value === undefined) continue;
    if (key === 'maxAffected') {
      if (prefs.handling === 'strict') applied.push(`max-affected=${value}`);
    } else applied.push(`${key}=${value}`);
  }
  return applied.length > 0 ? applied.join(', ') : null;
}
