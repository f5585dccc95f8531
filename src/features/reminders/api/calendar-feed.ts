import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Enums, Tables } from '../../../lib/database.types.ts';

/** What a calendar address shows: every document of the organisation, or the member's own. */
export type CalendarFeedScope = Enums<'calendar_feeds_scope'>;
import { functionUrl, supabase } from '../../../lib/supabase.ts';
import { reminderKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

export type CalendarFeed = Pick<
  Tables<'calendar_feeds'>,
  'id' | 'scope' | 'created_at' | 'last_fetched_at'
>;

/** The signed-in member's calendar address, if they made one (its secret is not stored). */
export async function getCalendarFeed(userId: string): Promise<CalendarFeed | null> {
  const { data } = await succeeded(
    supabase()
      .from('calendar_feeds')
      .select('id, scope, created_at, last_fetched_at')
      .eq('user_id', userId)
      .maybeSingle(),
    'Failed to load your calendar address',
  );
  return data;
}

export const calendarFeedQueryOptions = (userId: string) =>
  queryOptions({ queryKey: reminderKeys.calendar(userId), queryFn: () => getCalendarFeed(userId) });

export const useCalendarFeed = (userId: string) => useQuery(calendarFeedQueryOptions(userId));

/** The address a calendar application subscribes to. */
export const calendarAddress = (token: string) => functionUrl(`calendar/${token}.ics`);

/** Makes a new address (revoking the earlier one); returns it, shown once. */
export async function createCalendarFeed(scope: CalendarFeedScope): Promise<string> {
  const { data, error } = await supabase().rpc('create_calendar_feed', { scope });
  if (error || !data?.token) throw new Error(error?.message || 'Failed to make a calendar address');
  return calendarAddress(data.token);
}

export async function revokeCalendarFeed(): Promise<void> {
  await succeeded(supabase().rpc('revoke_calendar_feed'), 'Failed to remove your calendar address');
}

export function useCreateCalendarFeed(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCalendarFeed,
    meta: { errorMessage: 'Failed to make a calendar address' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reminderKeys.calendar(userId) }),
  });
}

export function useRevokeCalendarFeed(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeCalendarFeed,
    meta: { errorMessage: 'Failed to remove your calendar address' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reminderKeys.calendar(userId) }),
  });
}
