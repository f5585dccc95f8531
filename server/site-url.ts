import type { ServerConfig } from './config.ts';

/** Hosts that only this machine can reach. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * The start-up warning when people elsewhere may open the server but no `[auth] site_url` says
 * under which address: links in e-mails and calendar feeds then name the address the server
 * listens on (`listeningUrl`), which other machines may not reach. Null when nothing is amiss.
 */
export function siteUrlWarning(config: ServerConfig, listeningUrl: string): string | null {
  if (config.auth.siteUrl !== undefined || LOOPBACK.has(config.host)) return null;
  return (
    `Steward listens on ${config.host} but no site address is set: links in e-mails and ` +
    `calendar feeds lead to ${listeningUrl}, which other computers may not open. Set ` +
    '[auth] site_url in supabase/config.toml (or AUTH_SITE_URL) to the address people use.'
  );
}
