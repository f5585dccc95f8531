import type { Queryable } from '../db/database.ts';
import { rfc3339, trimFraction } from './timestamps.ts';
import type { UserRecord } from './users.ts';
import type { JsonObject } from './validation.ts';

interface IdentityRow {
  identity_id: string;
  id: string;
  user_id: string;
  identity_data: JsonObject;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string | null;
  updated_at: string | null;
  email: string | null;
}

/**
 * The user object of GoTrue's API (`GET /user`, `user` in a session): unset timestamps are
 * left out, a missing e-mail or phone is `""`, and the password hash never leaves.
 */
export async function userJson(q: Queryable, user: UserRecord): Promise<JsonObject> {
  const { rows } = await q.query<IdentityRow>(
    `select i.id as identity_id, i.provider_id as id, i.user_id, i.identity_data, i.provider,
            ${rfc3339('i.last_sign_in_at', 'last_sign_in_at')},
            ${rfc3339('i.created_at', 'created_at')},
            ${rfc3339('i.updated_at', 'updated_at')},
            i.email
       from auth.identities i where i.user_id = $1::uuid order by i.created_at, i.id`,
    [user.id],
  );
  const identities = rows.map((identity) =>
    withoutUnset({
      identity_id: identity.identity_id,
      id: identity.id,
      user_id: identity.user_id,
      identity_data: identity.identity_data,
      provider: identity.provider,
      last_sign_in_at: trimFraction(identity.last_sign_in_at),
      created_at: trimFraction(identity.created_at) ?? '',
      updated_at: trimFraction(identity.updated_at) ?? '',
      email: identity.email || undefined,
    }),
  );
  const factors = await q.query<{
    id: string;
    friendly_name: string | null;
    factor_type: string;
    status: string;
    created_at: string;
    updated_at: string;
    last_challenged_at: string | null;
  }>(
    `select id, friendly_name, factor_type, status, ${rfc3339('created_at', 'created_at')},
            ${rfc3339('updated_at', 'updated_at')},
            ${rfc3339('last_challenged_at', 'last_challenged_at')}
       from auth.mfa_factors where user_id = $1::uuid order by created_at, id`,
    [user.id],
  );
  return withoutUnset({
    id: user.id,
    aud: user.aud ?? '',
    role: user.role ?? '',
    email: user.email ?? '',
    email_confirmed_at: user.email_confirmed_at,
    invited_at: user.invited_at,
    phone: user.phone ?? '',
    phone_confirmed_at: user.phone_confirmed_at,
    confirmation_sent_at: user.confirmation_sent_at,
    confirmed_at: user.confirmed_at,
    recovery_sent_at: user.recovery_sent_at,
    new_email: user.new_email,
    email_change_sent_at: user.email_change_sent_at,
    last_sign_in_at: user.last_sign_in_at,
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities,
    // As GoTrue: only present when the user has second factors (never their secrets).
    factors:
      factors.rows.length > 0
        ? factors.rows.map((factor) =>
            withoutUnset({
              ...factor,
              friendly_name: factor.friendly_name ?? '',
              created_at: trimFraction(factor.created_at),
              updated_at: trimFraction(factor.updated_at),
              last_challenged_at: trimFraction(factor.last_challenged_at),
            }),
          )
        : undefined,
    created_at: user.created_at ?? '',
    updated_at: user.updated_at ?? '',
    banned_until: user.banned_until,
    deleted_at: user.deleted_at,
    is_anonymous: user.is_anonymous,
  });
}

function withoutUnset(object: Record<string, unknown>): JsonObject {
  return Object.fromEntries(
    Object.entries(object).filter(([, value]) => value !== null && value !== undefined),
  );
}
