import type { Queryable } from '../db/database.ts';
import { isPostgresError } from '../db/database.ts';
import type { JsonObject } from './validation.ts';

/** Where the invitation page puts its token in a sign-up's `data` (user metadata). */
export const INVITATION_TOKEN_FIELD = 'invitation_token';

/**
 * Removes the invitation token from sign-up `data`, so that it never lands in the user's
 * metadata, and returns it (`null` when there is none or it is not a string).
 */
export function takeInvitationToken(data: JsonObject): string | null {
  const token = data[INVITATION_TOKEN_FIELD];
  delete data[INVITATION_TOKEN_FIELD];
  return typeof token === 'string' && token !== '' ? token : null;
}

/**
 * Whether `token` is a pending, unexpired invitation sent to `email`, as the app's migration
 * `private.invitation_allows_sign_up` decides. A database without that function (the
 * platform alone) has no invitations, so nobody may sign up there while sign-up is closed.
 */
export async function invitationAllowsSignUp(
  db: Queryable,
  token: string,
  email: string,
): Promise<boolean> {
  try {
    const { rows } = await db.query<{ allowed: boolean }>(
      'select private.invitation_allows_sign_up($1::text, $2::text) as allowed',
      [token, email],
    );
    return rows[0]?.allowed === true;
  } catch (error) {
    // 42883: no such function; 3F000: no such schema.
    if (isPostgresError(error) && (error.code === '42883' || error.code === '3F000')) return false;
    throw error;
  }
}
