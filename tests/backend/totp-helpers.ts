import type { SupabaseClient } from '@supabase/supabase-js';
import * as OTPAuth from 'otpauth';
import type { Person } from '../security/world.ts';
import type { TestServer } from '../support/server.ts';
import { PASSWORD } from './auth-helpers.ts';

/** The code an authenticator app shows for `secret` at `offsetSteps` steps from now. */
export function codeFor(secret: string, offsetSteps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), period: 30 });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/**
 * Enrols a TOTP factor through supabase-js and verifies it with a code made from its secret,
 * as an authenticator app would: the client's session becomes `aal2`.
 */
export async function enrol(
  client: SupabaseClient,
): Promise<{ factorId: string; secret: string; code: string }> {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp' });
  if (error) throw error;
  const secret = data.totp.secret;
  const code = codeFor(secret);
  const verified = await client.auth.mfa.challengeAndVerify({ factorId: data.id, code });
  if (verified.error) throw verified.error;
  return { factorId: data.id, secret, code };
}

/** A fresh password sign-in of `person` (aal1). */
export async function signIn(server: TestServer, person: Person): Promise<SupabaseClient> {
  const client = server.anon();
  const { error } = await client.auth.signInWithPassword({
    email: person.email,
    password: PASSWORD,
  });
  if (error) throw error;
  return client;
}
