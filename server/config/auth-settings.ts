import type { TomlTable } from './toml.ts';
import { tableAt } from './toml.ts';
import type { SettingSource } from './values.ts';
import { booleanSetting, integerSetting, stringListSetting, stringSetting } from './values.ts';

/** Settings of `/auth/v1`: `[auth]` of config.toml, with `AUTH_*` variables taking precedence. */
export interface AuthSettings {
  /** `[auth] enable_signup` (and `[auth.email] enable_signup`): anyone may create an account. */
  enableSignup: boolean;
  /** `[auth] site_url`: the installation's public address, for links and redirects. */
  siteUrl: string;
  /** `[auth] additional_redirect_urls`: other addresses redirects may go to. */
  additionalRedirectUrls: string[];
  /** `[auth] jwt_expiry`: lifetime of access tokens in seconds (GoTrue's default is 3600). */
  jwtExpiry: number;
  /**
   * `[auth.rate_limit] sign_in_sign_ups`: sign-up and sign-in requests per client address in
   * five minutes (GoTrue's default is 30).
   */
  signInSignUpsPerAddress: number;
  /** `[auth.rate_limit] token_refresh`: refreshes per client address in five minutes (150). */
  tokenRefreshesPerAddress: number;
  /** Failed password sign-ins allowed per e-mail address within `failureWindowSeconds`. */
  maxFailuresPerEmail: number;
  /** Failed password sign-ins allowed per client address within `failureWindowSeconds`. */
  maxFailuresPerAddress: number;
  failureWindowSeconds: number;
  /** Keys (e-mails and addresses) the limiters remember at most; the stalest go first. */
  limiterMaxKeys: number;
  /**
   * Seconds after its rotation during which a refresh token may be presented again and yields
   * the session's current token instead of revoking the session (GoTrue's reuse interval: two
   * tabs refreshing at once, or a response the client never received).
   */
  refreshTokenReuseIntervalSeconds: number;
  /**
   * bcrypt cost of new password hashes: GoTrue's 10 by default. Test servers lower it, because
   * bcrypt in JavaScript spends ~100 ms of CPU per hash at 10 and tests sign up many users.
   */
  bcryptCost: number;
}

/**
 * Reads `[auth]` of config.toml (`supabaseToml`) and the `AUTH_*` variables. Without either,
 * sign-up is open, GoTrue's rate limits apply, and 5 failed sign-ins per e-mail address and 30
 * per client address are allowed in 15 minutes.
 */
export function readAuthSettings(
  env: NodeJS.ProcessEnv = process.env,
  supabaseToml: TomlTable = {},
): AuthSettings {
  const auth = tableAt(supabaseToml, 'auth');
  const email = tableAt(auth, 'email');
  const rateLimit = tableAt(auth, 'rate_limit');
  const from = (table: TomlTable, where: string, key: string, envName?: string): SettingSource => ({
    table,
    where: `config.toml [${where}]`,
    key,
    ...(envName ? { env: { vars: env, name: envName } } : {}),
  });
  // Sign-up by e-mail is open only when both switches are on, as in GoTrue.
  const enableSignup =
    booleanSetting(from(auth, 'auth', 'enable_signup', 'AUTH_ENABLE_SIGNUP'), true) &&
    booleanSetting(from(email, 'auth.email', 'enable_signup', 'AUTH_ENABLE_SIGNUP'), true);
  return {
    enableSignup,
    siteUrl: stringSetting(
      from(auth, 'auth', 'site_url', 'AUTH_SITE_URL'),
      'http://localhost:8080',
    ),
    additionalRedirectUrls: stringListSetting(
      from(auth, 'auth', 'additional_redirect_urls', 'AUTH_ADDITIONAL_REDIRECT_URLS'),
      [],
    ),
    jwtExpiry: integerSetting(from(auth, 'auth', 'jwt_expiry', 'AUTH_JWT_EXPIRY'), 3600, 30),
    signInSignUpsPerAddress: integerSetting(
      from(rateLimit, 'auth.rate_limit', 'sign_in_sign_ups', 'AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS'),
      30,
      1,
    ),
    tokenRefreshesPerAddress: integerSetting(
      from(rateLimit, 'auth.rate_limit', 'token_refresh', 'AUTH_RATE_LIMIT_TOKEN_REFRESH'),
      150,
      1,
    ),
    maxFailuresPerEmail: integerSetting(
      from({}, 'auth', '', 'AUTH_RATE_LIMIT_EMAIL_FAILURES'),
      5,
      1,
    ),
    maxFailuresPerAddress: integerSetting(
      from({}, 'auth', '', 'AUTH_RATE_LIMIT_ADDRESS_FAILURES'),
      30,
      1,
    ),
    failureWindowSeconds: integerSetting(
      from({}, 'auth', '', 'AUTH_RATE_LIMIT_WINDOW_SECONDS'),
      15 * 60,
      1,
    ),
    limiterMaxKeys: integerSetting(from({}, 'auth', '', 'AUTH_RATE_LIMIT_MAX_KEYS'), 10_000, 1),
    refreshTokenReuseIntervalSeconds: integerSetting(
      from(auth, 'auth', 'refresh_token_reuse_interval', 'AUTH_REFRESH_TOKEN_REUSE_INTERVAL'),
      10,
      0,
    ),
    bcryptCost: Math.min(integerSetting(from({}, 'auth', '', 'AUTH_BCRYPT_COST'), 10, 4), 14),
  };
}
