import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CompositeTypes } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { invitationKeys } from './query-keys.ts';

/** The lookup's answer; a valid invitation always has its e-mail. */
export type InvitationDetails = CompositeTypes<'invitation_details'> & { email: string };

export const INVALID_INVITATION = 'Invalid or expired invitation';
export const LOAD_FAILED = 'Failed to load invitation';

/**
 * What the invitation page shows (rpc `get_invitation`, callable without signing in). Throws
 * Invalid or expired invitation for a token that is unknown, used or expired, and Failed to
 * load invitation when the server could not be asked.
 */
export async function getInvitation(token: string): Promise<InvitationDetails> {
  const { data, error } = await supabase().rpc('get_invitation', { token });
  if (error) {
    if (error.message === INVALID_INVITATION) throw new Error(INVALID_INVITATION);
    console.error('Failed to load invitation', error);
    throw new Error(LOAD_FAILED);
  }
  if (!data?.email) throw new Error(INVALID_INVITATION);
  return { ...data, email: data.email };
}

export const invitationQueryOptions = (token: string) =>
  queryOptions({ queryKey: invitationKeys.lookup(token), queryFn: () => getInvitation(token) });

/** The invitation of `token`; nothing is asked for an empty token. */
export const useInvitation = (token: string) =>
  useQuery({ ...invitationQueryOptions(token), enabled: token !== '' });
