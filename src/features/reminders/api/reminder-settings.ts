import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Enums, Tables } from '../../../lib/database.types.ts';

/** Who receives reminders: the responsible member (else the admins), all admins, or both. */
export type ReminderRecipients = Enums<'reminder_settings_recipients'>;
import { supabase } from '../../../lib/supabase.ts';
import { reminderKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

export type ReminderSettings = Pick<
  Tables<'reminder_settings'>,
  'days_before' | 'remind_overdue' | 'send_hour' | 'time_zone' | 'recipients'
>;

/** What an organisation without settings of its own gets (the database's defaults). */
export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = {
  days_before: [30, 7, 1],
  remind_overdue: true,
  send_hour: 8,
  time_zone: 'UTC',
  recipients: 'both' satisfies ReminderRecipients,
};

/** The organisation's reminder settings, or the defaults. */
export async function getReminderSettings(organizationId: string): Promise<ReminderSettings> {
  const { data } = await succeeded(
    supabase()
      .from('reminder_settings')
      .select('days_before, remind_overdue, send_hour, time_zone, recipients')
      .eq('organization_id', organizationId)
      .maybeSingle(),
    'Failed to load the reminder settings',
  );
  return data ?? DEFAULT_REMINDER_SETTINGS;
}

export const reminderSettingsQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: reminderKeys.settings(organizationId),
    queryFn: () => getReminderSettings(organizationId),
  });

export const useReminderSettings = (organizationId: string) =>
  useQuery(reminderSettingsQueryOptions(organizationId));

/** Saves the settings (admins; row-level security refuses anyone else). */
export async function saveReminderSettings(
  organizationId: string,
  settings: ReminderSettings,
): Promise<ReminderSettings> {
  const { data } = await succeeded(
    supabase()
      .from('reminder_settings')
      .upsert({ organization_id: organizationId, ...settings })
      .select('days_before, remind_overdue, send_hour, time_zone, recipients')
      .single(),
    'Failed to save the reminder settings',
  );
  return data;
}

export function useSaveReminderSettings(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ReminderSettings) => saveReminderSettings(organizationId, settings),
    meta: { errorMessage: 'Failed to save the reminder settings' },
    onSuccess: (saved) => {
      queryClient.setQueryData(reminderKeys.settings(organizationId), saved);
      // The calendar's alarms follow the first reminder day.
      return queryClient.invalidateQueries({ queryKey: ['calendar_feeds'] });
    },
  });
}
