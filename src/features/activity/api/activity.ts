import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ACTIVITY_COLUMNS, type ActivityArea, type ActivityEntry } from '../../../lib/activity.ts';
import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Entries per page of the Activity page. */
export const ACTIVITY_PAGE_SIZE = 50;

/** What the Activity page shows: one page of entries, filtered by person, kind and date. */
export interface ActivityQuery {
  /** The member who acted (`actor_id`), or null for everyone. */
  actorId: string | null;
  area: ActivityArea | null;
  /** `yyyy-MM-dd`, inclusive, in the browser's time zone. */
  from: string | null;
  to: string | null;
  /** 0-based. */
  page: number;
}

export interface ActivityPage {
  entries: ActivityEntry[];
  total: number;
}

const startOfDay = (date: string) => new Date(`${date}T00:00:00`).toISOString();
const startOfNextDay = (date: string) => {
  const day = new Date(`${date}T00:00:00`);
  day.setDate(day.getDate() + 1);
  return day.toISOString();
};

/**
 * One page of the organisation's history, newest first, filtered and counted by the database
 * (admins; row-level security decides).
 */
export async function listActivity(query: ActivityQuery): Promise<ActivityPage> {
  let request = supabase()
    .from('activity_log')
    .select(ACTIVITY_COLUMNS, { count: 'exact' })
    .order('occurred_at', { ascending: false })
    .order('id', { ascending: false })
    .range(query.page * ACTIVITY_PAGE_SIZE, (query.page + 1) * ACTIVITY_PAGE_SIZE - 1);
  if (query.actorId) request = request.eq('actor_id', query.actorId);
  if (query.area) request = request.like('kind', `${query.area}.%`);
  if (query.from) request = request.gte('occurred_at', startOfDay(query.from));
  if (query.to) request = request.lt('occurred_at', startOfNextDay(query.to));
  const { data, count } = await succeeded(request, 'Failed to load the activity');
  return { entries: data, total: count ?? data.length };
}

export const activityQueryOptions = (query: ActivityQuery) =>
  queryOptions({
    queryKey: ['activity', query] as const,
    queryFn: () => listActivity(query),
    placeholderData: keepPreviousData,
  });

export const useActivity = (query: ActivityQuery) => useQuery(activityQueryOptions(query));

export interface Member {
  id: string;
  name: string;
}

/** Everyone of the organisation, deactivated members included, for the person filter. */
export async function listMembers(): Promise<Member[]> {
  const { data } = await succeeded(
    supabase().from('user_profiles').select('id, full_name, email').order('email'),
    'Failed to load the members',
  );
  return data.map((p) => ({ id: p.id, name: p.full_name?.trim() || p.email }));
}

export const useMembers = () =>
  useQuery({ queryKey: ['user_profiles', 'activity', 'members'], queryFn: listMembers });
