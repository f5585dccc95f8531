import { supabase } from '../../../lib/supabase.ts';

/** How many documents the organisation has (the Operations Center's Documents card). */
export async function countDocuments(): Promise<number> {
  const { count, error } = await supabase()
    .from('documents')
    .select('id', { count: 'exact', head: true });
  if (error) throw new Error(error.message);
  return count ?? 0;
}
