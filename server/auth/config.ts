/** Settings of `/auth/v1` that an operator (or a test) may change through the environment. */
export interface AuthSettings {
  /** Failed password sign-ins allowed per e-mail address within `failureWindowSeconds`. */
  maxFailuresPerEmail: number;
  /** Failed password sign-ins allowed per client address within `failureWindowSeconds`. */
  maxFailuresPerAddress: number;
  failureWindowSeconds: number;
  /** Keys (e-mails and addresses) the failure limiter remembers at most; the stalest go first. */
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

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) {
    throw new Error(`${name} must be an integer of at least ${minimum}, got "${raw}"`);
  }
  return value;
}

/**
 * Reads the `AUTH_*` variables. The defaults allow 5 failed sign-ins per e-mail address and 30
 * per client address in 15 minutes, and GoTrue's 10 second refresh-token reuse interval.
 */
export function readAuthSettings(env: NodeJS.ProcessEnv = process.env): AuthSettings {
  return {
    maxFailuresPerEmail: integer(env, 'AUTH_RATE_LIMIT_EMAIL_FAILURES', 5, 1),
    maxFailuresPerAddress: integer(env, 'AUTH_RATE_LIMIT_ADDRESS_FAILURES', 30, 1),
    failureWindowSeconds: integer(env, 'AUTH_RATE_LIMIT_WINDOW_SECONDS', 15 * 60, 1),
    limiterMaxKeys: integer(env, 'AUTH_RATE_LIMIT_MAX_KEYS', 10_000, 1),
    refreshTokenReuseIntervalSeconds: integer(env, 'AUTH_REFRESH_TOKEN_REUSE_INTERVAL', 10, 0),
    bcryptCost: Math.min(integer(env, 'AUTH_BCRYPT_COST', 10, 4), 14),
  };
}
