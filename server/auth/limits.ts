import type { Context } from 'hono';
import type { AuthSettings } from '../config/auth-settings.ts';
import { AuthError } from './errors.ts';
import { GuessLimiter } from './guess-limiter.ts';
import { limiterAddress } from './request-info.ts';
import { RequestRateLimiter } from './request-rate-limit.ts';

/** GoTrue's `[auth.rate_limit]` values count requests in five minutes. */
const RATE_LIMIT_WINDOW_MS = 5 * 60_000;

/** GoTrue's answer when a limit is reached (429 `over_request_rate_limit`). */
export const rateLimited = (retryAfterSeconds: number) =>
  new AuthError(
    429,
    'over_request_rate_limit',
    'Request rate limit reached',
    {},
    { 'Retry-After': String(retryAfterSeconds) },
  );

/** The auth service's limits, kept in memory for the life of the server. */
export class AuthLimits {
  /** Sign-ups and password sign-ins per client address (`sign_in_sign_ups`). */
  private readonly signInSignUps: RequestRateLimiter;
  /** Refresh-token grants per client address (`token_refresh`). */
  private readonly tokenRefreshes: RequestRateLimiter;
  /** Failed password sign-ins, slowed down per address and per account. */
  readonly guesses: GuessLimiter;

  constructor(settings: AuthSettings) {
    const maxKeys = settings.limiterMaxKeys;
    this.signInSignUps = new RequestRateLimiter({
      limit: settings.signInSignUpsPerAddress,
      windowMs: RATE_LIMIT_WINDOW_MS,
      maxKeys,
    });
    this.tokenRefreshes = new RequestRateLimiter({
      limit: settings.tokenRefreshesPerAddress,
      windowMs: RATE_LIMIT_WINDOW_MS,
      maxKeys,
    });
    this.guesses = new GuessLimiter({ ...settings.guesses, maxKeys });
  }

  /** Counts a sign-up or sign-in request of this client; throws 429 past its allowance. */
  countSignInOrSignUp(c: Context): void {
    const retryAfter = this.signInSignUps.take(limiterAddress(c));
    if (retryAfter > 0) throw rateLimited(retryAfter);
  }

  /** Counts a refresh-token request of this client; throws 429 past its allowance. */
  countTokenRefresh(c: Context): void {
    const retryAfter = this.tokenRefreshes.take(limiterAddress(c));
    if (retryAfter > 0) throw rateLimited(retryAfter);
  }
}
