import { RestError } from './errors.ts';
import { EXPOSED_SCHEMA } from './schema-cache.ts';

/** How a response body is shaped: a JSON array, one object (`.single()`), or CSV. */
export interface MediaChoice {
  kind: 'array' | 'single' | 'csv';
  /** `nulls=stripped`: keys whose value is null are left out. */
  stripNulls: boolean;
  contentType: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const SINGLE_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

interface AcceptEntry {
  type: string;
  params: Map<string, string>;
  q: number;
}

function parseAccept(header: string): AcceptEntry[] {
  return header
    .split(',')
    .map((part) => {
      const [type = '', ...rest] = part.split(';').map((s) => s.trim());
      const params = new Map<string, string>();
      for (const param of rest) {
        const eq = param.indexOf('=');
        if (eq > 0) params.set(param.slice(0, eq).trim().toLowerCase(), param.slice(eq + 1).trim());
      }
      const q = params.has('q') ? Number(params.get('q')) : 1;
      return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((entry) => entry.type !== '')
    .sort((a, b) => b.q - a.q);
}

function choose(entry: AcceptEntry): MediaChoice | null {
  if (entry.q <= 0) return null;
  const stripNulls = entry.params.get('nulls') === 'stripped';
  switch (entry.type) {
    case '*/*':
    case 'application/*':
    case 'application/json':
      return { kind: 'array', stripNulls: false, contentType: JSON_TYPE };
    case 'application/vnd.pgrst.array+json':
    case 'application/vnd.pgrst.array':
      return {
        kind: 'array',
        stripNulls,
        contentType: stripNulls
          ? 'application/vnd.pgrst.array+json; nulls=stripped; charset=utf-8'
          : JSON_TYPE,
      };
    case 'application/vnd.pgrst.object+json':
    case 'application/vnd.pgrst.object':
      return {
        kind: 'single',
        stripNulls,
        contentType: stripNulls
          ? 'application/vnd.pgrst.object+json; nulls=stripped; charset=utf-8'
          : SINGLE_TYPE,
      };
    case 'text/csv':
    case 'text/*':
      return { kind: 'csv', stripNulls: false, contentType: 'text/csv; charset=utf-8' };
    default:
      return null;
  }
}

/** Picks the response media type from `Accept`; none available is 406 PGRST107. */
export function negotiateMedia(accept: string | null | undefined): MediaChoice {
  if (!accept || !accept.trim())
    return { kind: 'array', stripNulls: false, contentType: JSON_TYPE };
  const entries = parseAccept(accept);
  for (const entry of entries) {
    const choice = choose(entry);
    if (choice) return choice;
  }
  throw new RestError(
    406,
    'PGRST107',
    `None of these media types are available: ${entries.map((e) => e.type).join(', ')}`,
  );
}

/**
 * The schema a request addresses: `Accept-Profile` for reads, `Content-Profile` for writes.
 * Only `public` is exposed; anything else is 406 PGRST106.
 */
export function checkProfile(method: string, headers: Headers): boolean {
  const header = ['GET', 'HEAD', 'OPTIONS'].includes(method) ? 'accept-profile' : 'content-profile';
  const profile = headers.get(header);
  if (profile === null) return false;
  if (profile !== EXPOSED_SCHEMA) {
    throw new RestError(406, 'PGRST106', `Invalid schema: ${profile}`, {
      hint: `Only the following schemas are exposed: ${EXPOSED_SCHEMA}`,
    });
  }
  return true;
}
