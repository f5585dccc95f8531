import { FunctionsHttpError } from '@supabase/supabase-js';
import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';

export interface ResetLink {
  link: string;
  email: string;
}

/**
 * A one-time link that lets a member set a new password, for the admin to pass on when e-mail
 * cannot reach them (the `member-reset-link` edge function; the database decides who may).
 */
export async function makeResetLink(userId: string): Promise<ResetLink> {
  const { data, error } = await supabase().functions.invoke<ResetLink>('member-reset-link', {
    body: { userId },
  });
  if (error instanceof FunctionsHttpError) {
    // The function's own words ({ error }), not "non-2xx status code".
    const body = (await error.context.json().catch(() => null)) as { error?: unknown } | null;
    throw new Error(typeof body?.error === 'string' ? body.error : error.message);
  }
  if (error) throw error;
  if (!data?.link) throw new Error('The reset link could not be made; please try again');
  return data;
}

export const useMakeResetLink = () =>
  useMutation({
    mutationKey: userKeys.teamChange('reset-link'),
    mutationFn: makeResetLink,
    meta: { errorMessage: 'Failed to make a reset link' },
  });
