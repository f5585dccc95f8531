import type { Context, Hono } from 'hono';
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomUUID } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { isPostgresError } from '../db/database.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { requireSignedIn, type SignedInCaller } from './authenticate.ts';
import { AuthError, badRequest, forbidden, unprocessable } from './errors.ts';
import { clientAddress } from '../http/client-address.ts';
import { setSessionHeaders } from './request-info.ts';
import { addAmrClaim, findSession, replaceRefreshToken } from './sessions.ts';
import { issueAccessToken, sessionResponse } from './tokens.ts';
import { userJson } from './user-json.ts';
import { findUserById } from './users.ts';
import { isUuid, readJsonObject, stringField } from './validation.ts';

/** TOTP as authenticator apps expect it: SHA-1, six digits, thirty seconds. */
const PERIOD = 30;
/**
 * The QR code's SVG as GoTrue answers it: supabase-js puts it unencoded after
 * `data:image/svg+xml;utf-8,`, where a `#` would end the image (the rest is read as a fragment)
 * and a browser shows a broken image. The colours are named instead of written in hex.
 */
function qrCodeSvg(svg: string): string {
  return svg.replaceAll('"#ffffff"', '"white"').replaceAll('"#000000"', '"black"');
}

/** Codes of the neighbouring steps count too (clock drift of ±30 s). */
const WINDOW = 1;
/** A challenge is answered within five minutes (GoTrue's default). */
const CHALLENGE_SECONDS = 300;
/** Wrong codes a factor takes in ten minutes before it refuses codes for a while. */
const MAX_FAILURES = 5;
const FAILURE_WINDOW = '10 minutes';
/** GoTrue's default limit of verified factors per user. */
const MAX_VERIFIED_FACTORS = 10;
const ISSUER = 'Steward';

interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  status: 'verified' | 'unverified';
  secret: string;
  last_used_step: string | null;
}

/** The key that seals TOTP seeds at rest, derived from the server's JWT secret. */
function sealingKey(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('steward totp seeds').digest();
}

/** A seed as stored: `v1:` and AES-256-GCM's nonce, tag and ciphertext, base64url. */
export function sealSecret(jwtSecret: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(jwtSecret), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

function openSecret(jwtSecret: string, stored: string): string {
  const raw = Buffer.from(stored.slice(3), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(jwtSecret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

const factorNotFound = () => new AuthError(404, 'mfa_factor_not_found', 'Factor not found');

async function ownFactor(q: Queryable, userId: string, id: string): Promise<FactorRow> {
  if (!isUuid(id)) throw factorNotFound();
  const { rows } = await q.query<FactorRow>(
    `select id, user_id, friendly_name, status, secret, last_used_step::text
       from auth.mfa_factors where id = $1::uuid and user_id = $2::uuid`,
    [id, userId],
  );
  if (!rows[0]) throw factorNotFound();
  return rows[0];
}

/** Whether the user has a verified second factor (GoTrue's `HasMFAEnabled`). */
export async function hasVerifiedFactor(q: Queryable, userId: string): Promise<boolean> {
  const { rows } = await q.query<{ enabled: boolean }>(
    `select exists (select 1 from auth.mfa_factors
                     where user_id = $1::uuid and status = 'verified') as enabled`,
    [userId],
  );
  return rows[0]?.enabled === true;
}

/**
 * Whether the app's migrations require a second factor of this user (an admin of an
 * organisation that requires two-factor sign-in). The platform alone requires none.
 */
async function twoFactorRequired(q: Queryable, userId: string): Promise<boolean> {
  try {
    const { rows } = await q.query<{ required: boolean }>(
      'select private.two_factor_required_for($1::uuid) as required',
      [userId],
    );
    return rows[0]?.required === true;
  } catch (error) {
    if (isPostgresError(error) && (error.code === '42883' || error.code === '3F000')) return false;
    throw error;
  }
}

async function sessionOf(db: Queryable, caller: SignedInCaller) {
  const session = caller.sessionId ? await findSession(db, caller.sessionId) : null;
  if (!session) throw forbidden('session_not_found', 'Session not found');
  return session;
}

/**
 * GoTrue's TOTP factors, so that supabase-js `auth.mfa.*` works unchanged: enrol (`POST
 * /factors`, a seed and its QR code), challenge, verify (the session becomes `aal2`, with a
 * `totp` entry in `amr`), unenroll. Seeds are sealed at rest and leave the server only in the
 * enrolment answer; a code is accepted once (never again within its window), and a factor
 * takes five wrong codes in ten minutes before it refuses codes for a while.
 */
export function registerMfa(app: Hono<ApiEnv>, ctx: AppContext): void {
  const secretKey = ctx.keys.jwtSecret;

  app.post('/factors', async (c) => {
    const caller = await requireSignedIn(c);
    const body = await readJsonObject(c);
    const type = stringField(body, 'factor_type');
    const friendlyName = stringField(body, 'friendly_name').trim();
    if (type === 'phone') {
      throw unprocessable('mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
    }
    if (type === 'webauthn') {
      throw unprocessable('mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
    }
    if (type !== 'totp') {
      throw badRequest('validation_failed', 'factor_type needs to be totp, phone or webauthn');
    }
    if (friendlyName.length > 100) {
      throw badRequest('validation_failed', 'friendly_name must be at most 100 characters');
    }
    const session = await sessionOf(c.get('db'), caller);
    const { rows } = await c.get('db').query<{ verified: number; same_name: boolean }>(
      `select count(*) filter (where status = 'verified')::int as verified,
              coalesce(bool_or(friendly_name = $2 and $2 <> '' and status = 'verified'), false)
                as same_name
         from auth.mfa_factors where user_id = $1::uuid`,
      [caller.user.id, friendlyName],
    );
    const { verified, same_name: sameName } = rows[0]!;
    if (verified > 0 && session.aal !== 'aal2') {
      throw forbidden('insufficient_aal', 'AAL2 required to enroll a new factor');
    }
    if (verified >= MAX_VERIFIED_FACTORS) {
      throw unprocessable(
        'too_many_enrolled_mfa_factors',
        'Maximum number of verified factors reached, unenroll to continue',
      );
    }
    if (sameName) {
      throw unprocessable(
        'mfa_factor_name_conflict',
        `A factor with the friendly name "${friendlyName}" for this user already exists`,
      );
    }

    const secret = new OTPAuth.Secret({ size: 20 });
    const totp = new OTPAuth.TOTP({
      issuer: ISSUER,
      label: caller.user.email ?? caller.user.id,
      algorithm: 'SHA1',
      digits: 6,
      period: PERIOD,
      secret,
    });
    const uri = totp.toString();
    const qrCode = qrCodeSvg(
      await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M' }),
    );
    const id = randomUUID();
    const now = new Date().toISOString();
    await c.get('db').transaction(async (tx) => {
      // A new enrolment replaces one still pending: one unconfirmed factor at a time.
      await tx.query(
        `delete from auth.mfa_factors where user_id = $1::uuid and status = 'unverified'`,
        [caller.user.id],
      );
      await tx.query(
        `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status,
            created_at, updated_at, secret)
          values ($1::uuid, $2::uuid, $3, 'totp', 'unverified', $4::timestamptz,
            $4::timestamptz, $5)`,
        [id, caller.user.id, friendlyName, now, sealSecret(secretKey, secret.base32)],
      );
    });
    return c.json({
      id,
      type: 'totp',
      friendly_name: friendlyName,
      totp: { qr_code: qrCode, secret: secret.base32, uri },
    });
  });

  app.post('/factors/:id/challenge', async (c) => {
    const caller = await requireSignedIn(c);
    const factor = await ownFactor(c.get('db'), caller.user.id, c.req.param('id'));
    const id = randomUUID();
    const now = new Date();
    await c.get('db').transaction(async (tx) => {
      await tx.query(
        `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address)
          values ($1::uuid, $2::uuid, $3::timestamptz, $4::inet)`,
        [id, factor.id, now.toISOString(), ipOrNull(c)],
      );
      await tx.query(
        `update auth.mfa_factors set last_challenged_at = $2::timestamptz where id = $1::uuid`,
        [factor.id, now.toISOString()],
      );
    });
    return c.json({
      id,
      type: 'totp',
      expires_at: Math.floor(now.getTime() / 1000) + CHALLENGE_SECONDS,
    });
  });

  app.post('/factors/:id/verify', async (c) => {
    const caller = await requireSignedIn(c);
    const body = await readJsonObject(c);
    const challengeId = stringField(body, 'challenge_id');
    const code = stringField(body, 'code').trim();
    const session = await sessionOf(c.get('db'), caller);
    const factorId = c.req.param('id');
    const outcome = await c.get('db').transaction(async (tx) => {
      const factor = await ownFactor(tx, caller.user.id, factorId);
      // One verification per factor at a time, so that a code cannot be used twice at once.
      await tx.query('select 1 from auth.mfa_factors where id = $1::uuid for update', [factor.id]);
      const fresh = await ownFactor(tx, caller.user.id, factorId);
      if (!isUuid(challengeId)) {
        return new AuthError(404, 'mfa_challenge_not_found', 'Challenge not found');
      }
      const { rows } = await tx.query<{ expired: boolean; failures: number }>(
        `select c.created_at < now() - make_interval(secs => $3) as expired,
                (select coalesce(sum(o.failed_attempts), 0)::int from auth.mfa_challenges o
                  where o.factor_id = $2::uuid
                    and o.created_at > now() - interval '${FAILURE_WINDOW}') as failures
           from auth.mfa_challenges c where c.id = $1::uuid and c.factor_id = $2::uuid`,
        [challengeId, fresh.id, CHALLENGE_SECONDS],
      );
      const challenge = rows[0];
      if (!challenge) {
        return new AuthError(404, 'mfa_challenge_not_found', 'Challenge not found');
      }
      if (challenge.failures >= MAX_FAILURES) {
        return new AuthError(
          429,
          'over_request_rate_limit',
          'Too many wrong codes for this factor; please try again in a few minutes',
          {},
          { 'Retry-After': '600' },
        );
      }
      if (challenge.expired) {
        await tx.query('delete from auth.mfa_challenges where id = $1::uuid', [challengeId]);
        return unprocessable(
          'mfa_challenge_expired',
          `MFA challenge ${challengeId} has expired, verify against another challenge or create a new challenge.`,
        );
      }
      const totp = new OTPAuth.TOTP({
        algorithm: 'SHA1',
        digits: 6,
        period: PERIOD,
        secret: OTPAuth.Secret.fromBase32(openSecret(secretKey, fresh.secret)),
      });
      const delta = /^\d{6}$/.test(code) ? totp.validate({ token: code, window: WINDOW }) : null;
      const step = delta === null ? null : Math.floor(Date.now() / 1000 / PERIOD) + delta;
      const lastUsed = fresh.last_used_step === null ? null : Number(fresh.last_used_step);
      if (step === null || (lastUsed !== null && step <= lastUsed)) {
        await tx.query(
          `update auth.mfa_challenges set failed_attempts = failed_attempts + 1
            where id = $1::uuid`,
          [challengeId],
        );
        return unprocessable('mfa_verification_failed', 'Invalid TOTP code entered');
      }

      const now = new Date().toISOString();
      await tx.query('delete from auth.mfa_challenges where id = $1::uuid', [challengeId]);
      await tx.query(
        `update auth.mfa_factors set status = 'verified', last_used_step = $2,
            updated_at = $3::timestamptz where id = $1::uuid`,
        [fresh.id, step, now],
      );
      if (fresh.status === 'unverified') {
        // As GoTrue: with a second factor in place, sessions that never proved it end.
        await tx.query(
          `delete from auth.sessions where user_id = $1::uuid and id <> $2::uuid
              and coalesce(aal, 'aal1') <> 'aal2'`,
          [caller.user.id, session.id],
        );
      }
      await addAmrClaim(tx, session.id, 'totp', now);
      const refreshToken = await replaceRefreshToken(tx, caller.user.id, session.id, now);
      const user = await findUserById(tx, caller.user.id);
      const upgraded = await findSession(tx, session.id);
      if (!user || !upgraded) return factorNotFound();
      return { user, session: upgraded, refreshToken, json: await userJson(tx, user) };
    });
    if (outcome instanceof AuthError) throw outcome;
    const access = issueAccessToken(ctx, outcome.user, outcome.session);
    setSessionHeaders(c, outcome.user.id, outcome.session.id);
    return c.json(sessionResponse(access, outcome.refreshToken, outcome.json));
  });

  app.delete('/factors/:id', async (c) => {
    const caller = await requireSignedIn(c);
    const factor = await ownFactor(c.get('db'), caller.user.id, c.req.param('id'));
    if (factor.status === 'verified') {
      const session = await sessionOf(c.get('db'), caller);
      if (session.aal !== 'aal2') {
        throw forbidden('insufficient_aal', 'AAL2 required to unenroll verified factor');
      }
      const { rows } = await c.get('db').query<{ others: number }>(
        `select count(*)::int as others from auth.mfa_factors
          where user_id = $1::uuid and status = 'verified' and id <> $2::uuid`,
        [caller.user.id, factor.id],
      );
      if (rows[0]!.others === 0 && (await twoFactorRequired(c.get('db'), caller.user.id))) {
        throw unprocessable(
          'mfa_required',
          'Your organization requires two-factor sign-in for admins: this is your last factor',
        );
      }
    }
    await c.get('db').query('delete from auth.mfa_factors where id = $1::uuid', [factor.id]);
    return c.json({ id: factor.id });
  });
}

function ipOrNull(c: Context): string | null {
  const address = clientAddress(c);
  return address && /^[0-9a-fA-F:.]+$/.test(address) ? address : null;
}
