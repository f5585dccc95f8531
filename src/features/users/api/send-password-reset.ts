import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/**
 * Has a link to set a new password e-mailed to a member's own address. Answers whether it is
 * on its way (`queued`) or could not be sent because this installation has no SMTP (`outbox`).
 */
export async function sendPasswordReset(userId: string): Promise<'queued' | 'outbox'> {
  const { data } = await succeeded(supabase().rpc('send_password_reset', { user_id: userId }));
  return data === 'queued' ? 'queued' : 'outbox';
}

/** Sending a member a reset link (their id is the variable). */
export const useSendPasswordReset = () =>
  useMutation({
    mutationKey: userKeys.teamChange('password-reset'),
    mutationFn: sendPasswordReset,
    meta: { errorMessage: 'Failed to send reset link' },
  });
