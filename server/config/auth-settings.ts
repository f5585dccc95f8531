import type { TomlTable } from './toml.ts';
import { tableAt } from './toml.ts';
import type { SettingSource } from './values.ts';
import {
  booleanSetting,
  durationSetting,
  integerSetting,
  stringListSetting,
  stringSetting,
} from './values.ts';

/** Budgets for failed password sign-ins; Steward's own (`AUTH_GUESS*` variables). */
export interface GuessSettings {
  /** How long a failed sign-in counts, in milliseconds (AUTH_GUESS_WINDOW, 1 hour). */
  windowMs: number;
  /**
   * Failures one client address may have on one account before it must wait, longer after
   * every further failure (AUTH_GUESSES_PER_ACCOUNT_AND_ADDRESS, 5).
   */
  perAccountAndAddress: number;
  /**
   * Failures one client address may have over all accounts before it must wait, longer after
   * every further failure (AUTH_GUESSES_PER_ADDRESS, 30). Not applied to an account from an
   * address where that account signed in before.
   */
  perAddress: number;
  /**
   * Failures one account may have from all addresses together before attempts on it from
   * addresses it has not signed in from take turns, one per `accountPaceMs`
   * (AUTH_GUESSES_PER_ACCOUNT, 30).
   */
  perAccount: number;
  /** The pace of those turns, in milliseconds (AUTH_GUESS_ACCOUNT_PACE, 20 s). */
  accountPaceMs: number;
  /**
   * Longest an attempt is held for its turn, in milliseconds (AUTH_GUESS_MAX_WAIT, 1 minute);
   * an attempt whose turn is further away is answered 429 with `Retry-After`.
   */
  maxWaitMs: number;
}

/** Settings of `/auth/v1`: `[auth]` of config.toml, with `AUTH_*` variables taking precedence. */
export interface AuthSettings {
  /** `[auth] enable_signup` (and `[auth.email] enable_signup`): anyone may create an account. */
  enableSignup: boolean;
  /**
   * `[auth] site_url`: the installation's public address, for links and redirects. Undefined
   * when not configured: links then use the address the server listens on (`ctx.siteUrl()`).
   */
  siteUrl: string | undefined;
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
  /**
   * Requests for account e-mails (password recovery, e-mail change) per client address in an
   * hour (AUTH_EMAIL_REQUESTS_PER_ADDRESS, 30), so that one client cannot spend the
   * installation's allowance of e-mail (`[auth.rate_limit] email_sent`, see
   * `config/mail-limit-settings.ts`) by itself. Steward's own, as GoTrue's per-address limits.
   */
  emailRequestsPerAddress: number;
  /**
   * `[auth.email] max_frequency`: shortest time between two account e-mails to one address, in
   * milliseconds (GoTrue's default is 1 minute). Unknown addresses are limited alike.
   */
  emailMaxFrequencyMs: number;
  /** `[auth.email] otp_expiry`: seconds an e-mailed link or code stays valid (3600). */
  emailOtpExpirySeconds: number;
  /**
   * `[auth.email] enable_confirmations`: new sign-ups confirm their address by a link before
   * they can sign in (GoTrue's `mailer_autoconfirm` off). Applies only where SMTP is configured,
   * since without it no link can arrive; invitation acceptances never need it.
   */
  enableConfirmations: boolean;
  /**
   * `[auth.email] double_confirm_changes` (GoTrue's secure e-mail change, on by default): a new
   * address is confirmed by links sent to both the current and the new address. Where sign-ups
   * confirm their address (`enable_confirmations`), the change needs both links; otherwise, as
   * in GoTrue, either link makes it.
   */
  doubleConfirmChanges: boolean;
  /**
   * `[auth.email] secure_password_change` (GoTrue's `update_password_require_reauthentication`,
   * off by default): a session begun more than 24 hours ago sets a new password only with the
   * code (`nonce`) that `GET /reauthenticate` e-mails to the account.
   */
  securePasswordChange: boolean;
  /**
   * How guessing at passwords is slowed down (see `server/auth/guess-limiter.ts`). Failed
   * sign-ins are remembered for `window`; each budget below counts failures in that window.
   */
  guesses: GuessSettings;
  /** Keys (accounts, addresses, pairs) each limiter remembers at most; the stalest go first. */
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

/** A configured site address without its trailing slashes; undefined when none is set. */
function siteUrlSetting(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`config.toml [auth] site_url (AUTH_SITE_URL) must be a URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('config.toml [auth] site_url (AUTH_SITE_URL) must be an http or https URL');
  }
  return value.trim().replace(/\/+$/, '');
}

/**
 * Reads `[auth]` of config.toml (`supabaseToml`) and the `AUTH_*` variables. Without either,
 * sign-up is open, GoTrue's rate limits apply, and guessing is slowed down as `GuessSettings`
 * describes.
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
    siteUrl: siteUrlSetting(stringSetting(from(auth, 'auth', 'site_url', 'AUTH_SITE_URL'), '')),
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
    emailRequestsPerAddress: integerSetting(
      from({}, 'auth', '', 'AUTH_EMAIL_REQUESTS_PER_ADDRESS'),
      30,
      1,
    ),
    emailMaxFrequencyMs: durationSetting(
      from(email, 'auth.email', 'max_frequency', 'AUTH_EMAIL_MAX_FREQUENCY'),
      60_000,
    ),
    emailOtpExpirySeconds: integerSetting(
      from(email, 'auth.email', 'otp_expiry', 'AUTH_EMAIL_OTP_EXPIRY'),
      3600,
      60,
    ),
    enableConfirmations: booleanSetting(
      from(email, 'auth.email', 'enable_confirmations', 'AUTH_EMAIL_ENABLE_CONFIRMATIONS'),
      false,
    ),
    doubleConfirmChanges: booleanSetting(
      from(email, 'auth.email', 'double_confirm_changes', 'AUTH_EMAIL_DOUBLE_CONFIRM_CHANGES'),
      true,
    ),
    securePasswordChange: booleanSetting(
      from(email, 'auth.email', 'secure_password_change', 'AUTH_EMAIL_SECURE_PASSWORD_CHANGE'),
      false,
    ),
    guesses: {
      windowMs: durationSetting(from({}, 'auth', '', 'AUTH_GUESS_WINDOW'), 3_600_000),
      perAccountAndAddress: integerSetting(
        from({}, 'auth', '', 'AUTH_GUESSES_PER_ACCOUNT_AND_ADDRESS'),
        5,
        1,
      ),
      perAddress: integerSetting(from({}, 'auth', '', 'AUTH_GUESSES_PER_ADDRESS'), 30, 1),
      perAccount: integerSetting(from({}, 'auth', '', 'AUTH_GUESSES_PER_ACCOUNT'), 30, 1),
      accountPaceMs: durationSetting(from({}, 'auth', '', 'AUTH_GUESS_ACCOUNT_PACE'), 20_000),
      maxWaitMs: durationSetting(from({}, 'auth', '', 'AUTH_GUESS_MAX_WAIT'), 60_000),
    },
    limiterMaxKeys: integerSetting(from({}, 'auth', '', 'AUTH_RATE_LIMIT_MAX_KEYS'), 10_000, 1),
    refreshTokenReuseIntervalSeconds: integerSetting(
      from(auth, 'auth', 'refresh_token_reuse_interval', 'AUTH_REFRESH_TOKEN_REUSE_INTERVAL'),
      10,
      0,
    ),
    bcryptCost: Math.min(integerSetting(from({}, 'auth', '', 'AUTH_BCRYPT_COST'), 10, 4), 14),
  };
}
