import type { ServerConfig, SmtpSettings } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { FunctionEnv } from '../../supabase/functions/_shared/function-env.ts';
import { functionSecret } from './secrets.ts';

/**
 * Secrets a function needs beyond the standard values: environment variable → name of the
 * secret kept in `DATA_DIR/function-secrets/`. A variable set in the server's own environment
 * wins, so an operator can pin a value (and keep it when moving to a hosted project).
 */
const GENERATED_SECRETS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // Encrypts the OAuth tokens the `oauth` function stores.
  oauth: { OAUTH_TOKEN_KEY: 'oauth' },
  // Encrypts the SMTP passwords organisations save (read by the delivery job too).
  'organization-mail-server': { ORGANIZATION_MAIL_KEY: 'organization-mail-server' },
};

/**
 * Settings of the installation a function reads from its environment: in local mode taken from
 * the server's configuration (`ctx.config`; `SITE_URL` is `ctx.siteUrl()`), on hosted Supabase set with `supabase secrets set`.
 * Lists are comma-separated.
 */
const CONFIGURED_VALUES: Readonly<
  Record<string, (config: ServerConfig, siteUrl: string) => Readonly<Record<string, string>>>
> = {
  // Where providers send users back, and which hosts a provider's addresses may name.
  oauth: (config, siteUrl) => ({
    SITE_URL: siteUrl,
    ADDITIONAL_REDIRECT_URLS: config.auth.additionalRedirectUrls.join(','),
    OAUTH_ALLOWED_HOSTS: config.oauth.allowedHosts.join(','),
  }),
  // Where the events link back to.
  calendar: (_config, siteUrl) => ({ SITE_URL: siteUrl }),
  // Which hosts an organisation's own SMTP server may be on beyond public ones.
  'organization-mail-server': (config) => ({
    ORGANIZATION_SMTP_ALLOWED_HOSTS: config.mail.organizationSmtpAllowedHosts.join(','),
  }),
  // Where a member's reset link leads (the app's /reset-password).
  'member-reset-link': (_config, siteUrl) => ({ SITE_URL: siteUrl }),
  // The installation's SMTP server and sender, where links in messages lead, how long links
  // to documents stay valid: what the embedded delivery job uses.
  'mail-worker': (config, siteUrl) => ({
    SITE_URL: siteUrl,
    ...(config.mail.smtp ? { SMTP_URL: smtpUrl(config.mail.smtp) } : {}),
    SMTP_ADMIN_EMAIL: config.mail.sender.address,
    SMTP_SENDER_NAME: config.mail.sender.name,
    MAIL_LINK_SECONDS: String(config.storage.maxSignedUrlExpirySeconds),
  }),
};

/** config.toml's `[auth.email.smtp]` fields as the URL the function reads (`SMTP_URL`). */
function smtpUrl(smtp: SmtpSettings): string {
  if ('url' in smtp) return smtp.url;
  const url = new URL(`${smtp.port === 465 ? 'smtps' : 'smtp'}://${smtp.host}:${smtp.port}`);
  if (smtp.user) {
    url.username = encodeURIComponent(smtp.user);
    url.password = encodeURIComponent(smtp.pass ?? '');
  }
  return url.toString();
}

/**
 * The environment a function's handler is built with in local mode: what Supabase's edge
 * runtime provides (the project URL and keys), the installation's settings the function reads,
 * and the function's own secrets.
 */
export async function functionEnv(
  ctx: AppContext,
  name: string,
  processEnv: NodeJS.ProcessEnv = process.env,
): Promise<FunctionEnv> {
  const env: Record<string, string> = {
    SUPABASE_URL: ctx.publicUrl(),
    SUPABASE_ANON_KEY: ctx.keys.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: ctx.keys.serviceRoleKey,
    // Built on a function's first call, once the server listens and knows its own address.
    ...CONFIGURED_VALUES[name]?.(ctx.config, ctx.siteUrl()),
  };
  for (const [variable, secret] of Object.entries(GENERATED_SECRETS[name] ?? {})) {
    env[variable] = processEnv[variable] || (await functionSecret(ctx.config.dataDir, secret));
  }
  return env;
}
