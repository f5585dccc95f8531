import type { Context } from 'hono';
import type { AuthSettings } from '../config/auth-settings.ts';
import type { Database } from '../db/database.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { AuthError } from './errors.ts';
import { guessBudgets, type GuessBudgets } from './guess-limiter.ts';
import { limiterAddress } from './request-info.ts';
import { requestRateLimiter, type RequestRateLimiter } from './request-rate-limit.ts';

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

/** GoTrue's answer when too many account e-mails were asked for. */
const emailRateLimited = (retryAfterSeconds: number, message: string) =>
  new AuthError(
    429,
    'over_email_send_rate_limit',
    message,
    {},
    { 'Retry-After': String(retryAfterSeconds) },
  );

/**
 * The auth service's limits, shared by the processes on one PostgreSQL (`request-rate-limit.ts`,
 * `guess-limiter.ts`), in memory on PGlite.
 */
export class AuthLimits {
  /** Sign-ups and password sign-ins per client address (`sign_in_sign_ups`). */
  private readonly signInSignUps: RequestRateLimiter;
  /** Refresh-token grants per client address (`token_refresh`). */
  private readonly tokenRefreshes: RequestRateLimiter;
  /** Failed password sign-ins, slowed down per address and per account. */
  readonly guesses: GuessBudgets;
  /** Account e-mails asked for per client address in an hour (AUTH_EMAIL_REQUESTS_PER_ADDRESS). */
  private readonly emailRequests: RequestRateLimiter;
  /** Account e-mails to one address: one per `max_frequency`. */
  private readonly emailRecipients: RequestRateLimiter;

  constructor(db: Pick<Database, 'kind'>, settings: AuthSettings) {
    const maxKeys = settings.limiterMaxKeys;
    this.signInSignUps = requestRateLimiter(db, {
      name: 'auth.sign_in_sign_ups',
      limit: settings.signInSignUpsPerAddress,
      windowMs: RATE_LIMIT_WINDOW_MS,
      maxKeys,
    });
    this.tokenRefreshes = requestRateLimiter(db, {
      name: 'auth.token_refresh',
      limit: settings.tokenRefreshesPerAddress,
      windowMs: RATE_LIMIT_WINDOW_MS,
      maxKeys,
    });
    this.guesses = guessBudgets(db, 'auth', { ...settings.guesses, maxKeys });
    this.emailRequests = requestRateLimiter(db, {
      name: 'auth.email_requests',
      limit: settings.emailRequestsPerAddress,
      windowMs: 60 * 60_000,
      maxKeys,
    });
    this.emailRecipients = requestRateLimiter(db, {
      name: 'auth.email_recipients',
      limit: 1,
      windowMs: settings.emailMaxFrequencyMs,
      maxKeys,
    });
  }

  /**
   * Counts a request for an account e-mail to `recipient` (as `emailLookupKey` spells it) from
   * this client; throws GoTrue's 429 past either allowance. Addresses without an account count
   * alike, so the answer never tells whether one exists.
   */
  async countEmail(c: Context<ApiEnv>, recipient: string): Promise<void> {
    const retryAfter = await this.emailRequests.take(c.get('db'), limiterAddress(c));
    if (retryAfter > 0) throw emailRateLimited(retryAfter, 'Email rate limit exceeded');
    const wait = await this.emailRecipients.take(c.get('db'), recipient);
    if (wait > 0) {
      throw emailRateLimited(
        wait,
        `For security purposes, you can only request this after ${wait} seconds.`,
      );
    }
  }

  /** Counts a sign-up or sign-in request of this client; throws 429 past its allowance. */
  async countSignInOrSignUp(c: Context<ApiEnv>): Promise<void> {
    const retryAfter = await this.signInSignUps.take(c.get('db'), limiterAddress(c));
    if (retryAfter > 0) throw rateLimited(retryAfter);
  }

  /** Counts a refresh-token request of this client; throws 429 past its allowance. */
  async countTokenRefresh(c: Context<ApiEnv>): Promise<void> {
    const retryAfter = await this.tokenRefreshes.take(c.get('db'), limiterAddress(c));
    if (retryAfter > 0) throw rateLimited(retryAfter);
  }
}
