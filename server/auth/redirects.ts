import type { AppContext } from '../context.ts';

/** A glob of `additional_redirect_urls` as GoTrue matches it: `*` within a part, `**` across. */
function globPattern(glob: string): RegExp {
  const escape = (part: string) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const pattern = glob
    .split('**')
    .map((part) => part.split('*').map(escape).join('[^/.]*'))
    .join('.*');
  return new RegExp(`^${pattern}$`);
}

/**
 * The `redirect_to` of a request if GoTrue would follow it: an http(s) address on the host of
 * `site_url` (or, without one, of the server's own address), or one matching an entry of `additional_redirect_urls` (exactly, as a prefix, or
 * as a glob). Anything else is null, and the caller falls back to the site, as GoTrue does.
 */
export function allowedRedirect(
  ctx: Pick<AppContext, 'config' | 'siteUrl'>,
  redirectTo: string | undefined,
): string | null {
  const settings = ctx.config.auth;
  if (!redirectTo) return null;
  let target: URL;
  try {
    target = new URL(redirectTo);
  } catch {
    return null;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
  try {
    if (target.hostname === new URL(ctx.siteUrl()).hostname) return target.toString();
  } catch {
    // A site_url that is not a URL allows nothing by host.
  }
  for (const entry of settings.additionalRedirectUrls) {
    if (redirectTo === entry || redirectTo.startsWith(entry.endsWith('/') ? entry : `${entry}/`)) {
      return target.toString();
    }
    if (entry.includes('*') && globPattern(entry).test(redirectTo)) return target.toString();
  }
  return null;
}
