import type { FunctionEnv } from '../_shared/function-env.ts';
import { requireEnv } from '../_shared/function-env.ts';
import { messages, OAuthError } from './http.ts';

/**
 * An address as the installation wrote it, reduced to what identifies the app: scheme, host,
 * port and path, without a trailing slash. Undefined for anything else (a pattern, a query).
 */
function appAddress(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (!['http:', 'https:'].includes(url.protocol)) return undefined;
  if (url.username || url.password || url.search || url.hash) return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** True for a bare origin, written as browsers send it (`https://host[:port]`). */
function isOrigin(text: string): boolean {
  try {
    return new URL(text).origin === text;
  } catch {
    return false;
  }
}

/**
 * The addresses the app is served at, as the installation configured them, the same settings
 * Supabase Auth redirects to: `SITE_URL` (config.toml `[auth] site_url`) and
 * `ADDITIONAL_REDIRECT_URLS` (`[auth] additional_redirect_urls`, comma-separated). A provider
 * sends the user back to one of these, never to an address the browser names: a redirect to an
 * address of the caller's choosing would hand the authorisation code to whoever controls it.
 */
export class AppAddresses {
  private constructor(
    /** The site address: where the user goes back when the browser names none. */
    readonly site: string,
    private readonly known: ReadonlySet<string>,
  ) {}

  /**
   * Reads `SITE_URL` (required: without it there is nowhere safe to send the user back) and
   * `ADDITIONAL_REDIRECT_URLS`. Entries that name no single address (Supabase allows patterns
   * such as `https://*.example.org/**` for its own redirects) are not addresses of the app and
   * are left out.
   */
  static fromEnv(env: FunctionEnv): AppAddresses {
    const site = appAddress(requireEnv(env, 'SITE_URL'));
    if (!site) throw new Error('SITE_URL must be the http or https address of the app');
    const additional = (env.ADDITIONAL_REDIRECT_URLS ?? '')
      .split(',')
      .map(appAddress)
      .filter((address): address is string => address !== undefined);
    return new AppAddresses(site, new Set([site, ...additional]));
  }

  /**
   * The app address to send the user back to: the origin the browser started from
   * (`requested`) when it is exactly one of the configured addresses, so the user returns to
   * the origin whose storage holds the state; the site address when the browser names none.
   * Any other value is refused.
   */
  returnAddress(requested: unknown): string {
    if (requested === undefined || requested === null) return this.site;
    if (typeof requested !== 'string' || !this.known.has(requested) || !isOrigin(requested)) {
      throw new OAuthError(400, messages.notAnAppAddress(this.site));
    }
    return requested;
  }
}
