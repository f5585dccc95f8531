import { supabase } from '../../../lib/supabase.ts';

/** How many active members the organisation has (the department page's Team Members card). */
export async function countActiveMembers(organizationId: string): Promise<number> {
  const { count, error } = await supabase()
    .from('user_profiles')
    .select('id', { count: 'exact', head: true })
    .eq('organization_id', organizationId)
    .eq('is_active', true);
  if (error) throw new Error(error.message);
  return count ?? 0;
}
