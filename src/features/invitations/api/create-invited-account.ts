import { supabase } from '../../../lib/supabase.ts';

/** Why creating the invited person's account did not leave them signed in. */
export type SignUpOutcome = 'signed-in' | 'already-registered' | 'needs-confirmation';

/**
 * Creates the invited person's account with the invitation's e-mail. The invitation goes
 * along: where an installation has closed sign-up, it is what lets this one through (the
 * server checks it and never stores it).
 */
export async function createInvitedAccount(
  email: string,
  password: string,
  invitationToken: string,
): Promise<SignUpOutcome> {
  const { data, error } = await supabase().auth.signUp({
    email,
    password,
    options: { data: { invitation_token: invitationToken } },
  });
  if (error) {
    if (error.message.includes('User already registered')) return 'already-registered';
    throw new Error(error.message || 'Failed to create user');
  }
  return data.session ? 'signed-in' : 'needs-confirmation';
}
