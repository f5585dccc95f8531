import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { reminderKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Whether the signed-in member receives reminder e-mails. */
export async function getEmailReminders(userId: string): Promise<boolean> {
  const { data } = await succeeded(
    supabase().from('user_profiles').select('email_reminders').eq('id', userId).single(),
    'Failed to fetch user profile',
  );
  return data.email_reminders;
}

export const emailRemindersQueryOptions = (userId: string) =>
  queryOptions({ queryKey: reminderKeys.mine(userId), queryFn: () => getEmailReminders(userId) });

export const useEmailReminders = (userId: string) => useQuery(emailRemindersQueryOptions(userId));

/** Turns one's own reminder e-mails on or off. */
export async function setEmailReminders(userId: string, on: boolean): Promise<boolean> {
  const { data } = await succeeded(
    supabase()
      .from('user_profiles')
      .update({ email_reminders: on })
      .eq('id', userId)
      .select('email_reminders')
      .single(),
    'Failed to save your reminder choice',
  );
  return data.email_reminders;
}

export function useSetEmailReminders(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) => setEmailReminders(userId, on),
    meta: { errorMessage: 'Failed to save your reminder choice' },
    onSuccess: (saved) => queryClient.setQueryData(reminderKeys.mine(userId), saved),
  });
}
